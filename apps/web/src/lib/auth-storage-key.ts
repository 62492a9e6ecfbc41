// The localStorage key of the session: its own module, so that pages can look for a stored session
// without loading the auth client. Shared with the pre-rendered pages' session hint (domain).
export { authLinkAnswerPattern, authStorageKey } from '@covenant/domain';
