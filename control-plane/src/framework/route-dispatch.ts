// The API's routers, dispatched by the first segments of the path: a request runs only the
// routers that have a route whose literal beginning its path starts with, instead of every
// router's routes() + allowedMethods() for every request. What it answers is what the chain of
// every router (router.routes(), router.allowedMethods(), one after another) answers: a router
// none of whose routes can match the path would only have passed the request on (its own
// middleware runs only when one of its routes matched), and one allowedMethods() after all of
// them sees the same matched layers as the chain's did (405 with Allow, 200 to OPTIONS, 501 for
// an unknown method).
import type Router from '@koa/router';
import type { Middleware, Next, ParameterizedContext } from 'koa';

/** How many leading path segments the dispatch looks at. */
const DEPTH = 3;
/** Where a pattern stops being literal (parameters, groups, modifiers, escapes). */
const NOT_LITERAL = /[:(*?+{\\[]/;

/**
 * The complete literal leading segments of a route's path, lower-cased (routes match regardless
 * of case): `/api/containers/:id` → ['api', 'containers']; none where the route could match
 * anything (a parameter in its first segment, a regular expression).
 */
export function literalSegments(routePath: string | RegExp): string[] {
  if (typeof routePath !== 'string' || !routePath.startsWith('/')) return [];
  const cut = routePath.search(NOT_LITERAL);
  const literal = (cut === -1 ? routePath : routePath.slice(0, cut)).toLowerCase().slice(1);
  const segments = literal.split('/');
  // The last piece is complete only where the whole path is literal (`/a/b`); in `/a/b:x` or
  // `/a/` (then '') it is not.
  if (cut !== -1 || literal.endsWith('/')) segments.pop();
  return segments.slice(0, DEPTH);
}

function requestKeys(path: string): string[] {
  const segments = path.toLowerCase().slice(1).split('/', DEPTH);
  const keys: string[] = [];
  for (let i = 1; i <= segments.length; i++) keys.push(segments.slice(0, i).join('/'));
  return keys;
}

type AnyContext = ParameterizedContext<unknown>;

/** Koa-compose's semantics for a fixed list, without its checks on every call. */
function chain(middleware: Middleware<unknown>[]): (ctx: AnyContext, next: Next) => Promise<void> {
  return (ctx, next) => {
    let last = -1;
    const run = (i: number): Promise<void> => {
      if (i <= last) return Promise.reject(new Error('next() called multiple times'));
      last = i;
      const fn = i === middleware.length ? next : middleware[i];
      if (!fn) return Promise.resolve();
      try {
        return Promise.resolve(fn(ctx as never, () => run(i + 1)));
      } catch (err) {
        return Promise.reject(err);
      }
    };
    return run(0);
  };
}

/** Which routers can have a route matching a path (indices into `routers`, in order). */
export function routerIndex(routers: Pick<Router<never>, 'stack'>[]): { select(path: string): number[] } {
  /** Routers any of whose routes could match whatever the path (a parameter first, a RegExp). */
  const everywhere: number[] = [];
  const byKey = new Map<string, Set<number>>();
  routers.forEach((router, index) => {
    for (const layer of router.stack) {
      if (layer.methods.length === 0) continue; // router.use(): runs only after a route matched
      const segments = literalSegments(layer.path);
      if (segments.length === 0) {
        if (!everywhere.includes(index)) everywhere.push(index);
        continue;
      }
      const key = segments.join('/');
      const set = byKey.get(key) ?? new Set<number>();
      set.add(index);
      byKey.set(key, set);
    }
  });
  /** By the request's keys that routes have (finitely many combinations, whatever the paths). */
  const selections = new Map<string, number[]>();
  return {
    select(path) {
      const known = requestKeys(path).filter((key) => byKey.has(key));
      const id = known.join('|');
      let selected = selections.get(id);
      if (!selected) {
        const indices = new Set(everywhere);
        for (const key of known) for (const i of byKey.get(key) ?? []) indices.add(i);
        selected = [...indices].sort((a, b) => a - b);
        selections.set(id, selected);
      }
      return selected;
    },
  };
}

/**
 * One middleware for all of `routers`, in their order; `routers[0]`'s allowedMethods() stands
 * for every router's (they all allow the default methods).
 */
export function dispatchByPrefix<S>(routers: Router<S>[]): Middleware<S> {
  const index = routerIndex(routers as unknown as Router<never>[]);
  const first = routers[0];
  const allowed = first ? (first.allowedMethods() as unknown as Middleware<unknown>) : undefined;
  const routes = routers.map((r) => r.routes() as unknown as Middleware<unknown>);
  /** One chain per selection (select() answers the same array for the same routers). */
  const chains = new Map<number[], ReturnType<typeof chain>>();
  const chainFor = (indices: number[]) => {
    let found = chains.get(indices);
    if (!found) {
      found = chain([...(allowed ? [allowed] : []), ...indices.map((i) => routes[i] as Middleware<unknown>)]);
      chains.set(indices, found);
    }
    return found;
  };

  const dispatch: Middleware<S> & { router?: Pick<Router<S>, 'stack'> } = (ctx, next) => {
    // As after any router of the chain ran: allowedMethods() answers 501 to an unknown method.
    const c = ctx as unknown as { matched?: unknown[] };
    c.matched ??= [];
    return chainFor(index.select(ctx.path))(ctx as unknown as AnyContext, next);
  };
  // Whoever lists the app's routes reads them as from one router's routes() (its `.router.stack`).
  dispatch.router = { stack: routers.flatMap((r) => r.stack) };
  return dispatch;
}
