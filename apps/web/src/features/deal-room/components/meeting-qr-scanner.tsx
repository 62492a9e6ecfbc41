import { useEffect, useRef, useState } from 'react';

/** How often a camera frame is decoded: often enough to feel instant, rarely enough for a phone's CPU. */
const scanIntervalMs = 200;

/**
 * The phone's camera, looking for the other party's check-in QR code. The decoder (jsQR) is loaded
 * only now, so nobody else downloads it. Calls `onScan` once with the code's text, and `onError`
 * when there is no camera or it is refused; the camera is released on unmount.
 */
export function MeetingQrScanner({
  onScan,
  onError,
}: {
  onScan: (text: string) => void;
  onError: (message: string) => void;
}) {
  const video = useRef<HTMLVideoElement>(null);
  const [state, setState] = useState<'starting' | 'scanning'>('starting');
  const callbacks = useRef({ onScan, onError });
  callbacks.current = { onScan, onError };

  useEffect(() => {
    let stopped = false;
    let stream: MediaStream | undefined;
    let timer: ReturnType<typeof setInterval> | undefined;
    const start = async () => {
      try {
        if (!navigator.mediaDevices?.getUserMedia) throw new Error('no camera');
        const [{ default: jsQR }, media] = await Promise.all([
          import('jsqr'),
          navigator.mediaDevices.getUserMedia({ video: { facingMode: 'environment' }, audio: false }),
        ]);
        stream = media;
        const element = video.current;
        if (stopped || !element) return;
        element.srcObject = media;
        await element.play();
        setState('scanning');
        const canvas = document.createElement('canvas');
        const context = canvas.getContext('2d', { willReadFrequently: true });
        timer = setInterval(() => {
          if (!context || element.videoWidth === 0) return;
          canvas.width = element.videoWidth;
          canvas.height = element.videoHeight;
          context.drawImage(element, 0, 0);
          const frame = context.getImageData(0, 0, canvas.width, canvas.height);
          const found = jsQR(frame.data, frame.width, frame.height, { inversionAttempts: 'dontInvert' });
          if (found?.data && !stopped) {
            stopped = true;
            clearInterval(timer);
            callbacks.current.onScan(found.data);
          }
        }, scanIntervalMs);
      } catch {
        if (!stopped) {
          callbacks.current.onError('The camera is not available. Type the other party’s code instead.');
        }
      }
    };
    void start();
    return () => {
      stopped = true;
      clearInterval(timer);
      for (const track of stream?.getTracks() ?? []) track.stop();
    };
  }, []);

  return (
    <div className="space-y-2">
      <video
        ref={video}
        muted
        playsInline
        aria-label="Camera view for scanning the other party’s QR code"
        className="aspect-square w-full max-w-xs rounded-md bg-black object-cover"
      />
      <p role="status" className="text-muted text-sm">
        {state === 'starting' ? 'Starting the camera…' : 'Point the camera at the other party’s QR code.'}
      </p>
    </div>
  );
}
