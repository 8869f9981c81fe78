/** A secret sealed with AES-256-GCM; every part base64, so both dialects store it as plain text. */
export interface SealedSecret {
  readonly ciphertext: string;
  readonly iv: string;
  readonly tag: string;
  /** Which operator key sealed it, so a rotated key is reported as such rather than as tampering. */
  readonly keyId: string;
}
