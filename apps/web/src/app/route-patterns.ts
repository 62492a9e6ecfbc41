// A relative import: the server's tests read this module too, outside the web app's alias.
import { paths } from '../config/paths.js';

/**
 * The path pattern of every route of the router (routes.tsx) but its catch-all: `/` and each page's
 * path, a parameter as `:name` (any one segment). The build writes them to `routes.json`, from which
 * the server tells an address the app has a page for from one it would answer with its not-found
 * page (ADR 032). A test holds them to the route table. Kept apart from routes.tsx so that reading
 * them loads no page.
 */
export const routePatterns: readonly string[] = Object.values(paths);
