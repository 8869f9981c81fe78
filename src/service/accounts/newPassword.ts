import { hashPassword, PASSWORD_RULES } from '../../accounts/secrets.js';
import { AccountInputError } from './accountErrors.js';

/** A sign-in password an operator sets, checked against the length rules and hashed (scrypt). */
export const hashNewPassword = (password: string): Promise<string> => {
  if (password.length < PASSWORD_RULES.minLength || password.length > PASSWORD_RULES.maxLength) {
    throw new AccountInputError(`a password needs ${PASSWORD_RULES.minLength}-${PASSWORD_RULES.maxLength} characters`);
  }
  return hashPassword(password);
};
