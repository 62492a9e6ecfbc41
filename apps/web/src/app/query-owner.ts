import { createContext } from 'react';

// Whose query cache a page uses: each AppProvider makes its own owner, and the query client is made
// for it the first time a page that fetches data opens (app/query-scope.tsx). The query library thus
// loads with the first such page, never with a page that only shows content.
export const QueryOwnerContext = createContext<object>({});
