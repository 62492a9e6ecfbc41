import type { UserNotification } from '@covenant/domain';
import { Bell } from 'lucide-react';
import { useRef } from 'react';
import { generatePath, Link } from 'react-router';
import { paths } from '@/config/paths.js';
import { cn } from '@/lib/cn.js';
import { useNotifications } from '../api/get-notifications.js';
import { useMarkNotificationsRead } from '../api/mark-notifications-read.js';

/**
 * The signed-in header's bell: the unread count, and a dropdown of the latest notifications that
 * link to their deal (opening one marks it read) with "Mark all read". Loaded lazily by the header,
 * so it costs the landing page's first load nothing.
 */
export function NotificationsBell({ onNavigate }: { onNavigate?: () => void }) {
  const notifications = useNotifications();
  const mark = useMarkNotificationsRead();
  const menu = useRef<HTMLDetailsElement>(null);
  const unread = notifications.data?.unread_count ?? 0;
  const items = notifications.data?.data ?? [];

  const open = (notification: UserNotification) => {
    if (!notification.read_at) mark.one.mutate(notification.id);
    if (menu.current) menu.current.open = false;
    onNavigate?.();
  };

  return (
    <details ref={menu} className="relative">
      <summary
        className="relative flex cursor-pointer list-none items-center rounded-md p-1.5 text-muted hover:text-foreground [&::-webkit-details-marker]:hidden"
        aria-label={unread > 0 ? `Notifications, ${unread} unread` : 'Notifications'}
      >
        <Bell aria-hidden="true" className="size-5" />
        {unread > 0 && (
          <span
            aria-hidden="true"
            className="-right-1 -top-1 absolute min-w-5 rounded-full bg-destructive px-1 text-center font-semibold text-white text-xs leading-5"
          >
            {unread > 99 ? '99+' : unread}
          </span>
        )}
      </summary>
      <div className="absolute right-0 z-50 mt-2 w-80 rounded-md border border-border bg-surface p-2 shadow-lg">
        <div className="flex items-center justify-between px-2 pb-2">
          <h2 className="font-semibold text-sm">Notifications</h2>
          <button
            type="button"
            className="text-primary text-xs hover:underline disabled:opacity-50"
            disabled={unread === 0 || mark.all.isPending}
            onClick={() => mark.all.mutate()}
          >
            Mark all read
          </button>
        </div>
        {notifications.isError ? (
          <p className="px-2 py-3 text-destructive text-sm">Notifications could not be loaded.</p>
        ) : items.length === 0 ? (
          <p className="px-2 py-3 text-muted text-sm">
            {notifications.isPending ? 'Loading…' : 'Nothing new. Steps of your deals show up here.'}
          </p>
        ) : (
          <ul aria-label="Notifications" className="max-h-96 overflow-y-auto">
            {items.map((notification) => (
              <li key={notification.id}>
                <NotificationLink notification={notification} onOpen={() => open(notification)} />
              </li>
            ))}
          </ul>
        )}
      </div>
    </details>
  );
}

function NotificationLink({ notification, onOpen }: { notification: UserNotification; onOpen: () => void }) {
  const content = (
    <>
      <span className="flex items-center gap-2 font-medium text-sm">
        {!notification.read_at && (
          <>
            <span aria-hidden="true" className="size-2 shrink-0 rounded-full bg-primary" />
            <span className="sr-only">Unread:</span>
          </>
        )}
        {notification.title}
      </span>
      <span className="mt-0.5 line-clamp-2 block text-muted text-xs">{notification.body}</span>
      <time dateTime={notification.created_at} className="mt-0.5 block text-muted text-xs">
        {new Date(notification.created_at).toLocaleString()}
      </time>
    </>
  );
  const className = cn(
    'block rounded px-2 py-2 hover:bg-surface-raised',
    notification.read_at && 'opacity-75',
  );
  if (!notification.deal_id) return <div className={className}>{content}</div>;
  return (
    <Link
      to={generatePath(paths.tradingDeal, { id: notification.deal_id })}
      onClick={onOpen}
      className={className}
    >
      {content}
    </Link>
  );
}
