/**
 * Pattern matching for the three parts of a rule. Patterns are plain strings; see the README
 * for the syntax.
 */

/** `*` matches every subject, `kind:*` every subject of that kind, anything else itself. */
export function matchSubject(pattern, subject) {
  if (pattern === '*') return true;
  if (pattern.endsWith(':*')) return subject.startsWith(pattern.slice(0, -1));
  return pattern === subject;
}

/** `*` matches every action, anything else itself. */
export function matchAction(pattern, action) {
  return pattern === '*' || pattern === action;
}

/**
 * Resource paths are `/`-separated segments. In a pattern, a `*` segment matches exactly one
 * segment and a `**` segment matches any number of segments, including none.
 */
export function matchResource(pattern, resource) {
  return matchSegments(pattern.split('/'), resource.split('/'));
}

function matchSegments(pattern, path) {
  // Wildcard matching with backtracking to the last `**` (like `*` in a glob over characters).
  let p = 0;
  let s = 0;
  let starP = -1;
  let starS = 0;
  while (s < path.length) {
    if (p < pattern.length && pattern[p] === '**') {
      starP = p++;
      starS = s;
    } else if (p < pattern.length && (pattern[p] === '*' || pattern[p] === path[s])) {
      p++;
      s++;
    } else if (starP !== -1) {
      p = starP + 1;
      s = ++starS;
    } else {
      return false;
    }
  }
  while (p < pattern.length && pattern[p] === '**') p++;
  return p === pattern.length;
}
