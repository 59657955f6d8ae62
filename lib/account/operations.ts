// The account endpoints' operations (/me, /clients), read by the OpenAPI document.
import type { Operation } from '../http/operation';

export const operations: Operation[] = [];
