import { Clock } from 'lucide-react';
import { useEffect, useState } from 'react';
import { cn } from '@/lib/cn.js';
import { formatCountdown } from './format-countdown.js';

/**
 * The time left to fund a leg, ticking each second: unfunded at the deadline, the deal is cancelled
 * and every deposit refunded, so a depositor must see how long remains.
 */
export function FundingCountdown({ deadline }: { deadline: string }) {
  const [now, setNow] = useState(() => new Date());
  const left = formatCountdown(new Date(deadline), now);
  const passed = left === null;
  // Ticks until the deadline passes; nothing changes after that.
  useEffect(() => {
    if (passed) return;
    const timer = setInterval(() => setNow(new Date()), 1000);
    return () => clearInterval(timer);
  }, [passed]);
  return (
    <p className={cn('flex items-center gap-2 text-sm', passed ? 'text-destructive' : 'text-muted')}>
      <Clock className="size-4" aria-hidden />
      {passed ? 'Funding deadline passed' : `Funding closes in ${left}`}
    </p>
  );
}
