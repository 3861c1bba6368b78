/**
 * The names graph-node gives an entity's query fields: `<entity>` for one record by id and
 * `<entities>` for the list (spec: "the lower camel case plural of the entity name", e.g.
 * ApprovalQuery → approvalQueries). graph-node pluralizes the whole type name with English
 * inflection rules and then lower-camel-cases it; both steps are reproduced here, quirks
 * included, because a query must use the exact name the host generated.
 */

/** Endings and their plural forms, tried in order; each applies to the end of the name as written (case-sensitive). */
const PLURAL_RULES: [RegExp, string][] = [
  [/(eaux)$/, '$1'],
  // Irregular words, when they end the name.
  [/(pe)(?:rson|ople)$/, '$1ople'],
  [/(child)(?:ren)?$/, '$1ren'],
  [/([ml])(?:ice|ouse)$/, '$1ice'],
  [/(matr|cod|mur|sil|vert|ind|append)(?:ix|ex)$/, '$1ices'],
  // Words that already end in a plural -es stay.
  [/(x|ch|ss|sh|zz)es$/, '$1es'],
  [/(x|ch|ss|sh|zz)$/, '$1es'],
  [/([^ch][ieo][ln])ey$/, '$1ies'],
  [/([^aeiouy]|qu)y$/, '$1ies'],
  [/(ar|l|ea|eo|oa|hoo)f$/, '$1ves'],
  [/(kni|wi|li)fe$/, '$1ves'],
  [/sis$/, 'ses'],
  // Latin and Greek endings (lower-case stems: they match inside a name, e.g. Metadata).
  [/(apheli|hyperbat|periheli|asyndet|noumen|phenomen|criteri|organ|prolegomen|hedr|automat)(?:a|on)$/, '$1a'],
  [/(agend|addend|millenni|dat|extrem|bacteri|desiderat|strat|candelabr|errat|ov|symposi|curricul|automat|quor)(?:a|um)$/, '$1a'],
  [/(her|at|gr)o$/, '$1oes'],
  [/(seraph|cherub)(?:im)?$/, '$1im'],
  [/(alumn|alg|vertebr)(?:a|ae)$/, '$1ae'],
  [/(alumn|syllab|octop|vir|radi|nucle|fung|cact|stimul|termin|bacill|foc|uter|loc|strat)(?:us|i)$/, '$1i'],
  [/([^l]ias|[aeiou]las|[emjzr]as|[iu]am)$/, '$1'],
  [/(e[mn]u)s?$/, '$1s'],
  [/(alias|[^aou]us|tlas|gas|ris)$/, '$1es'],
  [/(ax|test)is$/, '$1es'],
  [/([^aeiou]ese)$/, '$1'],
  // Anything else ending in s is taken as plural already.
  [/s$/, 's'],
];

/** The English plural of a type name, as graph-node forms it (ApprovalQuery → ApprovalQueries). */
export function pluralTypeName(name: string): string {
  for (const [pattern, replacement] of PLURAL_RULES) {
    if (pattern.test(name)) return name.replace(pattern, replacement);
  }
  return `${name}s`;
}

const isLower = (c: string) => c !== c.toUpperCase() && c === c.toLowerCase();
const isUpper = (c: string) => c !== c.toLowerCase() && c === c.toUpperCase();
const isAlnum = (c: string) => /[\p{L}\p{N}]/u.test(c);

/**
 * Lower camel case the way graph-node's inflector does it: the first letter and every letter of
 * a run of capitals are lowered; a capital after a lower-case letter, or the first letter after
 * a digit or separator, starts a word. So ApprovalQuery → approvalQuery, ERC20Token →
 * erc20Token, NFTSale → nftsale, TokenID → tokenID.
 */
export function lowerCamelCase(name: string): string {
  let out = '';
  let newWord = false;
  let started = false;
  // The last letter that continued a word; a capital that starts a word does not update it.
  let last = ' ';
  for (const c of name.replace(/[^\p{L}\p{N}]+$/u, '')) {
    if (!isAlnum(c)) {
      if (started) newWord = true;
      continue;
    }
    if (/\p{N}/u.test(c)) {
      started = true;
      newWord = true;
      out += c;
    } else if (started && (newWord || (isLower(last) && isUpper(c)))) {
      newWord = false;
      out += c.toUpperCase();
    } else {
      started = true;
      last = c;
      out += c.toLowerCase();
    }
  }
  return out;
}

/** The query field for one record by id: ApprovalQuery → approvalQuery. */
export function singleQueryName(entity: string): string {
  return lowerCamelCase(entity);
}

/**
 * The list query field: ApprovalQuery → approvalQueries. When the plural reads like the
 * singular (a name already ending in s, e.g. Stats), graph-node appends `_collection`.
 */
export function listQueryName(entity: string): string {
  const single = singleQueryName(entity);
  const list = lowerCamelCase(pluralTypeName(entity));
  return list === single ? `${single}_collection` : list;
}
