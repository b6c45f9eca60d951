/**
 * A reader that closed its end of the pipe (`kit replay … | head -3`) has read all it wants. The
 * command runs on to the exit code it would have had, writing nothing more to that stream, where
 * Node would otherwise end the process with an unhandled EPIPE error and exit code 1.
 */
export function outliveClosedPipes(...streams: NodeJS.WriteStream[]): void {
  for (const stream of streams)
    stream.on('error', (error: NodeJS.ErrnoException) => {
      if (error.code !== 'EPIPE') throw error;
      stream.write = discard as typeof stream.write;
    });
}

/** A write to a closed pipe: nothing is written, and a caller waiting for it is told it is done. */
function discard(...args: unknown[]): boolean {
  const done = args.find((arg) => typeof arg === 'function') as (() => void) | undefined;
  if (done) process.nextTick(done);
  return true;
}
