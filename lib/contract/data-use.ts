// The data-use rule of the service contract, in one place and in our own words: every page and document
// that gives access to the data (the key form, the consent screen) or describes it (the OpenAPI document
// and so /docs/api, /llms.txt, the MCP server's instructions, docs/api.md) states it.
export const DATA_USE_RULE =
  'Use this data only on behalf of the business that connected the account it comes from, and only for that business. Never sell or license it, never combine it across businesses, and never use it to build or enrich profiles of individual people.';
