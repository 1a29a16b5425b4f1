// --interval, the seconds between polls of a verb that follows a job (jobs) or a prompt (legacy):
// one parser, so both families accept the same values and refuse the rest with the same words.
import { InvalidArgumentError } from 'commander';
import { valueOption, type TypedOption } from './typed-options.js';

/** Often enough to see progress, never a busy loop, at least once an hour. */
const MIN_SECONDS = 0.05;
const MAX_SECONDS = 3600;

/** Seconds between polls (fractions allowed), from MIN_SECONDS to MAX_SECONDS. */
export function pollInterval(raw: string): number {
  const text = raw.trim();
  const seconds = Number(text);
  if (text === '' || !(seconds >= MIN_SECONDS && seconds <= MAX_SECONDS)) {
    throw new InvalidArgumentError(`it must be a number of seconds from ${MIN_SECONDS} to ${MAX_SECONDS}, e.g. --interval 2.`);
  }
  return seconds;
}

/** The --interval option of a following verb; `description` says what is polled and its default. */
export function intervalOption(description: string): TypedOption<number> {
  return valueOption('--interval <seconds>', description, pollInterval);
}

/** --interval's seconds (already parsed) in milliseconds, or `defaultSeconds` when not given. */
export function intervalMs(seconds: number | undefined, defaultSeconds = 1): number {
  return Math.round((seconds ?? defaultSeconds) * 1000);
}
