/**
 * `promise`'s value, or `fallback` once `ms` have passed without one. The
 * promise itself is left running (another waiter may share it); only this
 * wait ends, so what the waiter holds is released on time.
 */
export function settleWithin<T>(promise: PromiseLike<T>, ms: number, fallback: T): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => resolve(fallback), ms);
    promise.then(
      (value) => {
        clearTimeout(timer);
        resolve(value);
      },
      (error: unknown) => {
        clearTimeout(timer);
        reject(error);
      },
    );
  });
}
