import { Clock } from 'lucide-react';
import { useEffect, useState } from 'react';
import { cn } from '@/lib/cn.js';
import { formatCountdown } from './format-countdown.js';

/** A deadline's time left, ticking each second until it passes; nothing changes after that. */
function DeadlineCountdown({
  deadline,
  running,
  passed: passedText,
  note,
}: {
  deadline: string;
  running: (left: string) => string;
  passed: string;
  note?: string;
}) {
  const [now, setNow] = useState(() => new Date());
  const left = formatCountdown(new Date(deadline), now);
  const passed = left === null;
  useEffect(() => {
    if (passed) return;
    const timer = setInterval(() => setNow(new Date()), 1000);
    return () => clearInterval(timer);
  }, [passed]);
  return (
    <div className="space-y-1">
      <p className={cn('flex items-center gap-2 text-sm', passed ? 'text-destructive' : 'text-muted')}>
        <Clock className="size-4" aria-hidden />
        {passed ? passedText : running(left)}
      </p>
      {note ? <p className="text-muted text-xs">{note}</p> : null}
    </div>
  );
}

/**
 * The time left to fund a leg: unfunded at the deadline, the deal is cancelled and every deposit
 * refunded, so a depositor must see how long remains.
 */
export function FundingCountdown({ deadline }: { deadline: string }) {
  return (
    <DeadlineCountdown
      deadline={deadline}
      running={(left) => `Funding closes in ${left}`}
      passed="Funding deadline passed"
    />
  );
}

/**
 * The time left to settle a funded escrow (`settle_by`): a deal whose settlement has not started by
 * then is cancelled and both deposits refunded, so both parties must see how long remains.
 */
export function SettlementCountdown({ settleBy }: { settleBy: string }) {
  return (
    <DeadlineCountdown
      deadline={settleBy}
      running={(left) => `Settlement closes in ${left}`}
      passed="Settlement window closed"
      note="If the deal has not settled by then, it is cancelled and both deposits are refunded."
    />
  );
}
