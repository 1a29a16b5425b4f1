// State a module keeps for each dev-server without widening DevState: made on first use, dropped
// with the server.
import type { DevState } from './contract.js';

export function perState<T>(make: () => T): (state: DevState) => T {
  const kept = new WeakMap<DevState, T>();
  return (state) => {
    let value = kept.get(state);
    if (value === undefined) {
      value = make();
      kept.set(state, value);
    }
    return value;
  };
}
