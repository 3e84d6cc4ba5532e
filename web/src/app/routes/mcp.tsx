import { McpPage } from '../../features/mcp/components/mcp-page';

export function Component() {
  return <McpPage />;
}
