// The social endpoints' operations (path, scope, query and response schemas), read by the OpenAPI document.
import type { Operation } from '../../http/operation';

export const operations: Operation[] = [];
