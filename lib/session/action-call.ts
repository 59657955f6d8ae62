// A server action's call as it arrives, checked by proxy.ts before Next.js decodes it. React writes
// an action's arguments in its reply format: JSON in which a string that begins with `$` is a reference
// (to another part of the body, a Map, a promise, a server function…) or a value JSON cannot write.
// Next.js decodes the call before any of our code runs, and answered one whose JSON does not parse,
// whose argument list is no list, or whose references lead nowhere with a 500 and a logged stack. Our
// forms send little of that format: their form data (`$K1`), strings that begin with `$` (escaped as
// `$$…`) and `$undefined`, `$NaN`, `$Infinity`, `$-Infinity`, `$-0`. A call that holds anything else
// was made by no form of ours. What the arguments are, the actions check themselves
// (lib/session/action-arguments.ts).

/** The `$` strings the calls of our forms hold. */
const OWN_SPECIAL_VALUE = /^\$(\$|K\d+$|undefined$|NaN$|Infinity$|-Infinity$|-0$)/;

function parsedJson(text: unknown): { value: unknown } | null {
  if (typeof text !== 'string') return null;
  try {
    return { value: JSON.parse(text) as unknown };
  } catch {
    return null;
  }
}

/** Whether every string inside `value` is plain or one of ours (without recursion: a list may nest deep). */
function holdsOnlyOwnValues(value: unknown): boolean {
  const stack = [value];
  while (stack.length > 0) {
    const item = stack.pop();
    if (typeof item === 'string' && item.startsWith('$') && !OWN_SPECIAL_VALUE.test(item)) return false;
    if (typeof item === 'object' && item !== null) stack.push(...Object.values(item));
  }
  return true;
}

/** Whether `text` is an argument list our forms could have sent: the JSON text of an array, holding only our values. */
export function isArgumentList(text: unknown): boolean {
  const parsed = parsedJson(text);
  return parsed !== null && Array.isArray(parsed.value) && holdsOnlyOwnValues(parsed.value);
}

/**
 * Whether a form posted without JavaScript names its action as our pages write it: `$ACTION_ID_<id>`
 * alone, or `$ACTION_REF_<n>` with `$ACTION_<n>:0`, `{"id": …, "bound": null}` or `"bound": "$@1"`
 * with the bound arguments as the list `$ACTION_<n>:1`.
 */
export function isFormCall(form: FormData): boolean {
  for (const name of form.keys()) {
    const reference = /^\$ACTION_REF_(.*)$/s.exec(name)?.[1];
    if (reference === undefined) continue;
    const head = parsedJson(form.get(`$ACTION_${reference}:0`))?.value as { id?: unknown; bound?: unknown } | null | undefined;
    if (typeof head !== 'object' || head === null || typeof head.id !== 'string') return false;
    if (head.bound === '$@1' ? !isArgumentList(form.get(`$ACTION_${reference}:1`)) : head.bound !== null) return false;
  }
  return true;
}
