// The one list of operations: the REST routes, the MCP tools and the OpenAPI document are all built from it.
import { operations as accountOperations } from '../account/operations';
import type { Operation } from '../contract/operation';
import { operations as adsOperations } from '../metrics/ads/operations';
import { operations as socialOperations } from '../metrics/social/operations';
import { operations as storeOperations } from '../metrics/store/operations';
import { operations as websiteOperations } from '../metrics/website/operations';

/** Every operation of the REST interface, in the order the document lists them. */
export function allOperations(): Operation[] {
  return [...accountOperations, ...adsOperations, ...socialOperations, ...websiteOperations, ...storeOperations];
}
