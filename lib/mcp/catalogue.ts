// The MCP tools: the operations that have a tool face, in the spec's order, and describe_metrics.
import type { Operation } from '../http/operation';
import { allOperations } from '../openapi/document';
import { describeMetricsOperation } from './describe-metrics';

const dataTools = allOperations().filter((operation) => operation.tool);

export const TOOL_OPERATIONS: Operation[] = [...dataTools, describeMetricsOperation(dataTools)];
