import { Navigate, Outlet } from 'react-router';
import { PageSpinner } from '@/components/page-spinner.js';
import { paths } from '@/config/paths.js';
import { useAuth } from '@/lib/auth.js';

// Guards the routes below it: a spinner while the session loads, /auth for signed-out visitors.
export function RequireAuth() {
  const { session, loading } = useAuth();
  if (loading) return <PageSpinner label="Loading your session" />;
  if (!session) return <Navigate to={paths.auth} replace />;
  return <Outlet />;
}
