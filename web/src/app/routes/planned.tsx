import { useMatches } from 'react-router-dom';
import { UnderConstruction } from '../../components/under-construction';
import type { RouteHandle } from '../router';

export function Component() {
  const matches = useMatches();
  const handle = matches[matches.length - 1]?.handle as RouteHandle | undefined;
  return <UnderConstruction title={handle?.title} />;
}
