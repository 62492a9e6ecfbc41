import type { RouteObject } from 'react-router';
import { describe, expect, it } from 'vitest';
import { routePatterns } from '@/app/route-patterns.js';
import { routes } from '@/app/routes.js';

// Every path of the router's table, the index route as `/`, its catch-all left out.
function patternsOf(tree: RouteObject[]): string[] {
  return tree.flatMap((route) => {
    const own = route.index ? ['/'] : route.path && route.path !== '*' ? [route.path] : [];
    return [...own, ...patternsOf(route.children ?? [])];
  });
}

describe('routePatterns', () => {
  it('lists every route of the router but its catch-all, and nothing else', () => {
    expect([...routePatterns].toSorted()).toEqual(patternsOf(routes).toSorted());
  });

  it('has only absolute patterns, each once', () => {
    for (const pattern of routePatterns) expect(pattern).toMatch(/^\//);
    expect(new Set(routePatterns).size).toBe(routePatterns.length);
  });

  it('has one catch-all in the router, the not-found page', () => {
    const catchAlls = JSON.stringify(routes, (_key, value: unknown) => value).match(/"path":"\*"/g);
    expect(catchAlls).toHaveLength(1);
  });
});
