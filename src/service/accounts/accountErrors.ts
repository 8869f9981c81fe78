/** Input an operator gave that an account use case refuses (the CLI exits 2). */
export class AccountInputError extends Error {
  override readonly name = 'AccountInputError';
}

/** The account named does not exist (the CLI exits 1). */
export class UnknownAccountError extends Error {
  override readonly name = 'UnknownAccountError';
  constructor(accountId: string) {
    super(`no account ${accountId.slice(0, 80)}`);
  }
}
