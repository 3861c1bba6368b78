/**
 * The CLI's own knobs as its messages name them: the environment variable of the response cap,
 * and the words failure messages end with (the editor's setting beside each flag: the editor's
 * messages say the same words, so a message reads alike wherever it is shown).
 */
import type { KnobHints } from '../core/knobs';

/** The environment variable that sets the response cap for the CLI. */
export const MAX_RESPONSE_ENV = 'CHAINDECK_MAX_RESPONSE_MB';

export const CLI_HINTS: Required<KnobHints> = {
  timeout: 'the setting chaindeck.requestTimeoutMs (CLI: --timeout MS)',
  timeoutBrief: '--timeout, or the setting chaindeck.requestTimeoutMs',
  responseCap: `the setting chaindeck.maxResponseMB (CLI: the environment variable ${MAX_RESPONSE_ENV})`,
  apiUrl: 'setting chaindeck.platform.apiUrl, CLI: --api-url',
  mappingKeys: '--keys',
};
