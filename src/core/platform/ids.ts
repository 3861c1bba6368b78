/**
 * What a platform id may be: letters, digits, - and _, starting with a letter or digit, at most
 * 64 characters (the API's ids look like ND-123-456-789). Ids from the user and from the API's
 * replies are both checked before they go into a URL path, so none can leave its route. Apart
 * from the client, so what only checks an id (the CLI's arguments) does not load the HTTP stack.
 */
export const PLATFORM_ID_PATTERN = /^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$/;
export const PLATFORM_ID_RULE = 'letters, digits, - and _, starting with a letter or digit, at most 64 characters';

export function isPlatformId(id: string): boolean {
  return PLATFORM_ID_PATTERN.test(id);
}
