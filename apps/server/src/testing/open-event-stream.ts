/** An open server-sent event stream read over real HTTP, the way the web app reads it (fetch with headers). */
export interface OpenEventStream {
  response: Response;
  /** Resolves with everything received once it contains `text`. */
  waitFor(text: string, timeoutMs?: number): Promise<string>;
  received(): string;
  /** Stops reading at once. */
  abort(): void;
  /** Stops reading and waits until the reading has ended. */
  close(): Promise<void>;
}

export async function openEventStream(
  url: string,
  headers: Record<string, string>,
): Promise<OpenEventStream> {
  const controller = new AbortController();
  const response = await fetch(url, { headers, signal: controller.signal });
  let text = '';
  const decoder = new TextDecoder();
  const reading = (async () => {
    if (!response.body || response.status !== 200) return;
    const reader = response.body.getReader();
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return;
      text += decoder.decode(value, { stream: true });
    }
  })().catch(() => {});
  return {
    response,
    received: () => text,
    waitFor: async (expected, timeoutMs = 5_000) => {
      const deadline = Date.now() + timeoutMs;
      while (!text.includes(expected)) {
        if (Date.now() > deadline)
          throw new Error(`not received: ${JSON.stringify(expected)}; got ${JSON.stringify(text)}`);
        await Promise.race([reading, new Promise((resolve) => setTimeout(resolve, 20))]);
      }
      return text;
    },
    abort: () => controller.abort(),
    close: async () => {
      controller.abort();
      await reading;
    },
  };
}
