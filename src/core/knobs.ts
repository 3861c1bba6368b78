/**
 * How the user changes a limit that core applies, in the words that end a failure message. Core
 * names no setting, flag or environment variable: each front end (the editor's settings module,
 * the CLI) hands over its own words with the limits themselves. Without them a message states
 * the limit and stops there.
 */
export interface KnobHints {
  /** After "Raise the limit with": how to give a request more time. */
  timeout?: string;
  /** In parentheses after a retry given up for lack of time: the timeout's knobs, briefly. */
  timeoutBrief?: string;
  /** After "or raise the cap with": how to accept a larger reply. */
  responseCap?: string;
  /** In parentheses after "Check the platform API URL": where that URL is set. */
  apiUrl?: string;
  /** After "name the keys wanted with": how the user gives a storage decode its mapping keys. */
  mappingKeys?: string;
}
