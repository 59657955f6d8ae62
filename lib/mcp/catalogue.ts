// The MCP tools: the operations that have a tool face, in the spec's order, and describe_metrics.
import type { Operation } from '../contract/operation';
import { allOperations } from '../operations/registry';
import { describeMetricsOperation } from './describe-metrics';

const dataTools = allOperations().filter((operation) => operation.tool);

export const TOOL_OPERATIONS: Operation[] = [...dataTools, describeMetricsOperation(dataTools)];
