// Allow or Deny on the consent screen (a plain form POST, so it works without JavaScript).
import { handleConsentDecision } from '@/lib/oauth/consent-decision';

export const dynamic = 'force-dynamic';

export const POST = handleConsentDecision;
