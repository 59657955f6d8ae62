// Names and dimension keys the generator draws from. Every brand and domain is fictional
// (example.* domains), so nothing in the demo data points at a real business.

export interface Category {
  /** Search terms and store products of this kind of business. */
  terms: readonly string[];
  products: readonly { title: string; priceUsd: number }[];
  captions: readonly string[];
}

const CATEGORIES: readonly Category[] = [
  {
    terms: ['hiking tent', 'sleeping bag', 'trekking poles', 'camping stove'],
    products: [
      { title: 'Ultralight 2P Tent', priceUsd: 249 },
      { title: 'Down Sleeping Bag -5°C', priceUsd: 179 },
      { title: 'Carbon Trekking Poles', priceUsd: 89 },
      { title: 'Compact Camping Stove', priceUsd: 59 },
      { title: 'Merino Base Layer', priceUsd: 75 },
      { title: 'Waterproof Daypack 28L', priceUsd: 119 },
      { title: 'Headlamp 400lm', priceUsd: 39 },
      { title: 'Insulated Bottle 1L', priceUsd: 29 },
    ],
    captions: ['Trail-tested and ready for the weekend.', 'Pack light, go further.', 'Monsoon treks need the right gear.'],
  },
  {
    terms: ['indoor plants', 'monstera plant', 'ceramic plant pots', 'plant care tips'],
    products: [
      { title: 'Monstera Deliciosa (Medium)', priceUsd: 45 },
      { title: 'Snake Plant Duo', priceUsd: 32 },
      { title: 'Glazed Ceramic Pot', priceUsd: 24 },
      { title: 'Self-Watering Planter', priceUsd: 38 },
      { title: 'Organic Potting Mix 5kg', priceUsd: 15 },
      { title: 'Fiddle Leaf Fig', priceUsd: 65 },
      { title: 'Plant Mister', priceUsd: 12 },
      { title: 'Hanging Macramé Set', priceUsd: 28 },
    ],
    captions: ['A little green goes a long way.', 'New arrivals for your windowsill.', 'Meet the easiest plant you will ever own.'],
  },
  {
    terms: ['masala chai', 'cold brew coffee', 'cafe near me', 'tea gift box'],
    products: [
      { title: 'Masala Chai Blend 250g', priceUsd: 9 },
      { title: 'Cold Brew Bottles (6)', priceUsd: 18 },
      { title: 'Tea Gift Box', priceUsd: 35 },
      { title: 'Ginger Lemongrass Tea', priceUsd: 8 },
      { title: 'Brass Tea Strainer', priceUsd: 14 },
      { title: 'Cafe Mug', priceUsd: 12 },
      { title: 'Filter Coffee Kit', priceUsd: 42 },
      { title: 'Cardamom Cookies', priceUsd: 6 },
    ],
    captions: ['Your evening chai, sorted.', 'Freshly brewed, every single morning.', 'The gift box is back for the season.'],
  },
  {
    terms: ['organic spices', 'garam masala', 'saffron price', 'spice gift set'],
    products: [
      { title: 'Kashmiri Saffron 2g', priceUsd: 22 },
      { title: 'Garam Masala 100g', priceUsd: 7 },
      { title: 'Spice Tin Gift Set', priceUsd: 48 },
      { title: 'Turmeric Powder 200g', priceUsd: 5 },
      { title: 'Whole Cardamom 100g', priceUsd: 11 },
      { title: 'Chilli Flakes', priceUsd: 4 },
      { title: 'Biryani Masala', priceUsd: 6 },
      { title: 'Stone Mortar & Pestle', priceUsd: 34 },
    ],
    captions: ['Sourced straight from the farms.', 'Five spices every kitchen needs.', 'Festive gifting made easy.'],
  },
  {
    terms: ['linen shirts', 'summer dresses', 'sustainable fashion', 'kurta sets'],
    products: [
      { title: 'Linen Shirt', priceUsd: 55 },
      { title: 'Cotton Kurta Set', priceUsd: 68 },
      { title: 'Wrap Summer Dress', priceUsd: 72 },
      { title: 'Relaxed Chinos', priceUsd: 60 },
      { title: 'Block-Print Scarf', priceUsd: 25 },
      { title: 'Canvas Tote', priceUsd: 19 },
      { title: 'Organic Tee', priceUsd: 22 },
      { title: 'Denim Jacket', priceUsd: 95 },
    ],
    captions: ['Breathable linen for the hottest days.', 'Handblocked prints, made in small batches.', 'The summer edit is live.'],
  },
  {
    terms: ['project management software', 'crm for small business', 'invoice software', 'team planner'],
    products: [
      { title: 'Starter Plan (Annual)', priceUsd: 190 },
      { title: 'Team Plan (Annual)', priceUsd: 490 },
      { title: 'Onboarding Session', priceUsd: 150 },
      { title: 'Extra Seats (5)', priceUsd: 120 },
      { title: 'Template Pack', priceUsd: 29 },
      { title: 'Priority Support', priceUsd: 99 },
      { title: 'API Add-on', priceUsd: 60 },
      { title: 'Training Workshop', priceUsd: 300 },
    ],
    captions: ['Plan your week in five minutes.', 'New: recurring invoices.', 'Teams that plan together ship together.'],
  },
];

const DEMO_CLIENTS = ['Acme Outdoor', 'Bloom Botanicals', 'Chai Point Cafés', 'Saffron Spice Co', 'Urban Threads', 'Northwind Planner'];
const OTHER_CLIENTS = ['Zenith Motors', 'Lotus Wellness', 'Harbor Books'];
const NAME_FIRST = ['Blue', 'Golden', 'Silver', 'Green', 'Red', 'North', 'South', 'Bright', 'Little', 'Royal', 'Coral', 'Maple'];
const NAME_SECOND = ['Harbor', 'Peak', 'River', 'Lotus', 'Cedar', 'Orchid', 'Falcon', 'Meadow', 'Stone', 'Banyan'];
const NAME_KIND = ['Outfitters', 'Gardens', 'Kitchen', 'Spices', 'Studio', 'Labs'];

export interface ClientIdentity {
  name: string;
  /** Lower-case, dash-separated: used for domains and handles. */
  slug: string;
  category: Category;
}

function slugify(name: string): string {
  return name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '');
}

/** Client names for an organisation: the fixed demo names first, then generated ones. */
export function clientIdentities(orgIndex: number, count: number): ClientIdentity[] {
  const fixed = orgIndex === 0 ? DEMO_CLIENTS : OTHER_CLIENTS;
  const out: ClientIdentity[] = [];
  for (let i = 0; i < count; i++) {
    const generated = i - fixed.length;
    const name =
      fixed[i] ??
      `${NAME_FIRST[generated % NAME_FIRST.length]} ${NAME_SECOND[Math.floor(generated / NAME_FIRST.length) % NAME_SECOND.length]} ${NAME_KIND[generated % NAME_KIND.length]}`;
    // The category follows the name's kind for generated clients and the index for fixed ones.
    const category = CATEGORIES[(i < fixed.length ? i : generated) % CATEGORIES.length] as Category;
    out.push({ name, slug: slugify(name), category });
  }
  return out;
}

// ── ads ──

export const OBJECTIVES: readonly { objective: string; resultType: string; names: readonly string[] }[] = [
  { objective: 'OUTCOME_SALES', resultType: 'purchase', names: ['Prospecting – Broad – Purchases', 'Advantage+ Shopping – Catalogue'] },
  { objective: 'OUTCOME_LEADS', resultType: 'lead', names: ['Lead Gen – Instant Form', 'Lead Gen – Free Consultation'] },
  { objective: 'OUTCOME_TRAFFIC', resultType: 'link_click', names: ['Traffic – Blog Promotion', 'Traffic – New Collection'] },
  { objective: 'OUTCOME_SALES', resultType: 'purchase', names: ['Retargeting – Cart Abandoners', 'Festive Sale – Conversions'] },
  { objective: 'OUTCOME_AWARENESS', resultType: 'video_view', names: ['Brand Awareness – Video', 'Reach – Store Launch Video'] },
  { objective: 'OUTCOME_ENGAGEMENT', resultType: 'post_engagement', names: ['Engagement – Page Posts', 'Engagement – Reels Boost'] },
  { objective: 'OUTCOME_TRAFFIC', resultType: 'landing_page_view', names: ['Traffic – Landing Page Views', 'Traffic – Offer Page'] },
];

export const AD_SET_NAMES = [
  'Broad – 18-65+',
  'Lookalike 1% – Purchasers',
  'Interests – Lifestyle',
  'Retargeting – Site Visitors 30d',
  'Advantage+ Audience',
  'Lookalike 3% – Leads',
  'Custom – Engaged IG 90d',
  'Metro Cities – 25-44',
];

export const IMAGE_AD_NAMES = ['Static – Hero Offer', 'Static – Product Close-up', 'Carousel – Bestsellers', 'Carousel – New Arrivals'];
export const VIDEO_AD_NAMES = ['Video – UGC Testimonial 15s', 'Video – Brand Story 30s', 'Reel – Behind the Scenes', 'Video – Product Demo'];

export const AGES = ['18-24', '25-34', '35-44', '45-54', '55-64', '65+'] as const;
export const AGE_WEIGHTS = [0.15, 0.33, 0.25, 0.14, 0.08, 0.05];
export const GENDERS = ['female', 'male', 'unknown'] as const;
export const AD_PLATFORMS = ['facebook', 'instagram', 'audience_network', 'messenger'] as const;
export const AD_PLATFORM_WEIGHTS = [0.5, 0.4, 0.06, 0.04];
/** Placement positions per platform, with typical shares of that platform's delivery. */
export const POSITIONS: Record<(typeof AD_PLATFORMS)[number], readonly { position: string; weight: number }[]> = {
  facebook: [
    { position: 'feed', weight: 0.55 },
    { position: 'reels', weight: 0.15 },
    { position: 'story', weight: 0.1 },
    { position: 'marketplace', weight: 0.08 },
    { position: 'video_feeds', weight: 0.07 },
    { position: 'search', weight: 0.05 },
  ],
  instagram: [
    { position: 'feed', weight: 0.45 },
    { position: 'story', weight: 0.25 },
    { position: 'reels', weight: 0.25 },
    { position: 'explore', weight: 0.05 },
  ],
  audience_network: [{ position: 'classic', weight: 1 }],
  messenger: [
    { position: 'inbox', weight: 0.7 },
    { position: 'story', weight: 0.3 },
  ],
};
export const DEVICE_PLATFORMS = ['mobile_app', 'mobile_web', 'desktop'] as const;
export const DEVICE_PLATFORM_WEIGHTS = [0.78, 0.12, 0.1];

export const REGIONS: Record<'IN' | 'US', readonly { region: string; country: string; weight: number }[]> = {
  IN: [
    { region: 'Maharashtra', country: 'IN', weight: 0.22 },
    { region: 'Karnataka', country: 'IN', weight: 0.16 },
    { region: 'Delhi', country: 'IN', weight: 0.15 },
    { region: 'Tamil Nadu', country: 'IN', weight: 0.1 },
    { region: 'Telangana', country: 'IN', weight: 0.09 },
    { region: 'Gujarat', country: 'IN', weight: 0.08 },
    { region: 'West Bengal', country: 'IN', weight: 0.07 },
    { region: 'Kerala', country: 'IN', weight: 0.06 },
    { region: 'Uttar Pradesh', country: 'IN', weight: 0.07 },
  ],
  US: [
    { region: 'California', country: 'US', weight: 0.2 },
    { region: 'Texas', country: 'US', weight: 0.13 },
    { region: 'New York', country: 'US', weight: 0.12 },
    { region: 'Florida', country: 'US', weight: 0.1 },
    { region: 'Illinois', country: 'US', weight: 0.07 },
    { region: 'Washington', country: 'US', weight: 0.07 },
    { region: 'England', country: 'GB', weight: 0.08 },
    { region: 'Ontario', country: 'CA', weight: 0.06 },
  ],
};

// ── web analytics ──

export const CHANNELS: readonly { channel: string; weight: number; conversion: number; sources: readonly string[] }[] = [
  { channel: 'Organic Search', weight: 0.34, conversion: 0.3, sources: ['google / organic', 'bing / organic', 'duckduckgo / organic'] },
  { channel: 'Direct', weight: 0.22, conversion: 0.28, sources: ['(direct) / (none)'] },
  { channel: 'Paid Social', weight: 0.16, conversion: 0.12, sources: ['facebook / paid', 'instagram / paid'] },
  { channel: 'Organic Social', weight: 0.1, conversion: 0.05, sources: ['m.facebook.com / referral', 'l.instagram.com / referral', 'linkedin.com / referral'] },
  { channel: 'Paid Search', weight: 0.09, conversion: 0.14, sources: ['google / cpc'] },
  { channel: 'Email', weight: 0.05, conversion: 0.09, sources: ['newsletter / email'] },
  { channel: 'Referral', weight: 0.04, conversion: 0.02, sources: ['blog.example.org / referral', 'news.example.net / referral'] },
];

export const SITE_PAGES: readonly { path: string; title: string; weight: number; organic: number }[] = [
  { path: '/', title: 'Home', weight: 0.3, organic: 0.2 },
  { path: '/products', title: 'All products', weight: 0.14, organic: 0.1 },
  { path: '/pricing', title: 'Pricing', weight: 0.08, organic: 0.05 },
  { path: '/blog', title: 'Blog', weight: 0.05, organic: 0.06 },
  { path: '/blog/buying-guide', title: 'The complete buying guide', weight: 0.07, organic: 0.22 },
  { path: '/blog/care-tips', title: 'Ten care tips', weight: 0.05, organic: 0.16 },
  { path: '/about', title: 'About us', weight: 0.03, organic: 0.02 },
  { path: '/contact', title: 'Contact', weight: 0.03, organic: 0.02 },
  { path: '/offers/festive-sale', title: 'Festive sale', weight: 0.06, organic: 0.03 },
  { path: '/cart', title: 'Your cart', weight: 0.04, organic: 0 },
  { path: '/checkout', title: 'Checkout', weight: 0.03, organic: 0 },
  { path: '/account/login', title: 'Sign in', weight: 0.02, organic: 0.01 },
];

export const EVENTS: readonly { name: string; weight: number; userShare: number; key: boolean }[] = [
  { name: 'page_view', weight: 0.34, userShare: 0.99, key: false },
  { name: 'user_engagement', weight: 0.2, userShare: 0.7, key: false },
  { name: 'scroll', weight: 0.14, userShare: 0.55, key: false },
  { name: 'session_start', weight: 0.12, userShare: 1, key: false },
  { name: 'first_visit', weight: 0.07, userShare: 0.65, key: false },
  { name: 'click', weight: 0.05, userShare: 0.2, key: false },
  { name: 'view_item', weight: 0.04, userShare: 0.25, key: false },
  { name: 'add_to_cart', weight: 0.015, userShare: 0.06, key: false },
  { name: 'begin_checkout', weight: 0.008, userShare: 0.03, key: false },
  { name: 'form_submit', weight: 0.006, userShare: 0.02, key: false },
  { name: 'purchase', weight: 0.004, userShare: 0.015, key: true },
  { name: 'generate_lead', weight: 0.003, userShare: 0.01, key: true },
];

export const WEB_DEVICES: readonly { key: string; label: string; weight: number }[] = [
  { key: 'mobile', label: 'Mobile', weight: 0.61 },
  { key: 'desktop', label: 'Desktop', weight: 0.35 },
  { key: 'tablet', label: 'Tablet', weight: 0.04 },
];

export const COUNTRIES: readonly { iso2: string; iso3: string; name: string }[] = [
  { iso2: 'IN', iso3: 'ind', name: 'India' },
  { iso2: 'US', iso3: 'usa', name: 'United States' },
  { iso2: 'GB', iso3: 'gbr', name: 'United Kingdom' },
  { iso2: 'CA', iso3: 'can', name: 'Canada' },
  { iso2: 'AU', iso3: 'aus', name: 'Australia' },
  { iso2: 'AE', iso3: 'are', name: 'United Arab Emirates' },
  { iso2: 'SG', iso3: 'sgp', name: 'Singapore' },
  { iso2: 'DE', iso3: 'deu', name: 'Germany' },
];

/** Country weights for a business based in `home` (ISO alpha-2): most traffic is domestic. */
export function countryWeights(home: string): number[] {
  return COUNTRIES.map((c, i) => (c.iso2 === home ? 12 : 1 / (1 + i * 0.5)));
}

// ── search console ──

export const SEARCH_DEVICES = ['MOBILE', 'DESKTOP', 'TABLET'] as const;
export const SEARCH_APPEARANCES = ['PRODUCT_SNIPPETS', 'REVIEW_SNIPPET', 'VIDEO', 'FAQ_RICH_RESULT'] as const;

/** The queries a site ranks for: its brand, then its category's terms and their variants. */
export function searchQueries(client: ClientIdentity): string[] {
  const brand = client.name.toLowerCase().replace(/[^a-z0-9 ]/g, '');
  const out = [brand, `${brand} reviews`, `${brand} discount code`];
  for (const term of client.category.terms) out.push(term, `best ${term}`, `${term} price`, `buy ${term} online`);
  return out;
}

// ── store ──

export const STORE_CHANNELS = [
  { key: 'online_store', label: 'Online Store', weight: 0.72 },
  { key: 'instagram_shop', label: 'Instagram & Facebook Shop', weight: 0.12 },
  { key: 'google', label: 'Google & YouTube', weight: 0.09 },
  { key: 'pos', label: 'Point of Sale', weight: 0.07 },
];
export const STORE_REFERRERS = [
  { key: 'google', label: 'Google', weight: 0.35 },
  { key: 'direct', label: 'Direct', weight: 0.3 },
  { key: 'instagram', label: 'Instagram', weight: 0.17 },
  { key: 'facebook', label: 'Facebook', weight: 0.1 },
  { key: 'email', label: 'Email', weight: 0.08 },
];
export const DISCOUNT_CODES = [
  { key: 'WELCOME10', label: 'WELCOME10', detail: '10% off first order', weight: 0.18 },
  { key: 'FESTIVE20', label: 'FESTIVE20', detail: '20% off sitewide', weight: 0.12 },
  { key: 'FREESHIP', label: 'FREESHIP', detail: 'Free shipping', weight: 0.07 },
];

// ── social ──

export const CAPTION_TAILS = [
  'Tap the link in bio to shop. 🛍️',
  'Tell us your favourite in the comments 👇',
  '#smallbusiness #madeinindia',
  'Free shipping this week only.',
  'Which one would you pick?',
];

export const SYNC_ERRORS: Record<string, string> = {
  ads: 'Error validating access token: The session has been invalidated because the user changed their password. (code 190)',
  social: '(#4) Application request limit reached (code 4)',
  analytics: 'PERMISSION_DENIED: User does not have sufficient permissions for this property.',
  search_console: "User does not have sufficient permission for site. See also: https://support.google.com/webmasters/answer/2451999.",
  store: '[API] Invalid API key or access token (unrecognized login or wrong password)',
};
