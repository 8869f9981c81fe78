import type { HelixError } from '../domain/errors.js';

/**
 * RFC 6750 §3 challenges. A request without credentials gets a bare challenge (no error code);
 * a bad token gets `invalid_token`; a missing scope gets `insufficient_scope` naming the scope.
 * Every challenge points at the RFC 9728 protected-resource metadata.
 */
export const bearerChallenge = (err: HelixError, resourceMetadataUrl: string): string | undefined => {
  const metadata = `resource_metadata="${resourceMetadataUrl}"`;
  switch (err.code) {
    case 'unauthorized':
    case 'session_required':
      // RFC 7235: every 401 names a scheme; the browser surface still points at the metadata.
      return `Bearer ${metadata}`;
    case 'invalid_token':
      return `Bearer error="invalid_token", error_description="The access token is invalid", ${metadata}`;
    case 'insufficient_scope':
      return `Bearer error="insufficient_scope", scope="${err.details.scope ?? ''}", ${metadata}`;
    default:
      return undefined;
  }
};
