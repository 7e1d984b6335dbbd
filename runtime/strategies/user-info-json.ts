// authentication.k8s.io/v1 UserInfo as Go encodes it, for the reviews that answer with a user
// (SelfSubjectReview, TokenReview): every field left out when empty, extra keys in sorted order.
import type { UserInfo } from "../access/user-info.js";
import type { JsonObject } from "../validation/walk.js";

export function userInfoJson(user: UserInfo): JsonObject {
  const extra = Object.entries(user.extra ?? {}).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return {
    ...(user.name !== "" && { username: user.name }),
    ...(user.uid !== undefined && user.uid !== "" && { uid: user.uid }),
    ...(user.groups.length > 0 && { groups: user.groups }),
    ...(extra.length > 0 && { extra: Object.fromEntries(extra) }),
  };
}
