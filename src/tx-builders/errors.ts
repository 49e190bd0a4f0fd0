/** Why a transaction could not be built; the message is one line a person can act on. */
export type BuildErrorCode = 'insufficient-funds' | 'nothing-to-import' | 'nothing-to-unlock' | 'bad-intent';

export class BuildError extends Error {
  override name = 'BuildError';
  constructor(
    readonly code: BuildErrorCode,
    message: string,
  ) {
    super(message);
  }
}
