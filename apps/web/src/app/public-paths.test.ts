import type { RouteObject } from 'react-router';
import { describe, expect, it } from 'vitest';
import { RequireAuth } from '@/app/require-auth.js';
import { routes } from '@/app/routes.js';
import { publicPaths } from '@/config/paths.js';

// The paths of the router that no RequireAuth encloses: the pages anyone may open.
function openPaths(tree: RouteObject[]): string[] {
  return tree.flatMap((route) => {
    if (route.Component === RequireAuth) return [];
    const own = route.index ? ['/'] : route.path && route.path !== '*' ? [route.path] : [];
    return [...own, ...openPaths(route.children ?? [])];
  });
}

describe('publicPaths', () => {
  it('lists every route of the router that needs no sign-in, and nothing else', () => {
    expect(openPaths(routes).toSorted()).toEqual([...publicPaths].toSorted());
  });
});
