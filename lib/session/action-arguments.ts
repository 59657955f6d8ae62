// The arguments of a server action, checked before the action reads them. Anyone can call an action by
// its id with arguments of their own choosing (a Next-Action post whose body is `[]`, or a no-JavaScript
// post naming a stateful action by `$ACTION_ID_`), and an action that took them on trust failed with a
// TypeError: a 500 and a logged stack. A call whose arguments are not what a form sends is refused
// here, with forbidden() (403; Next.js renders a no-JavaScript post's refusal as its 404 page) and one
// log line, before anything is read or changed. Every action of app/ runs its arguments through here.
// (A call Next.js could not even decode is refused before, by proxy.ts: lib/session/action-call.ts.)
import { forbidden } from 'next/navigation';
import { logger } from '../telemetry/logger';

function refuseMalformedCall(action: string, problem: string): never {
  // The values themselves are never logged: a form may carry a password.
  logger().warn(`[server action] ${action}: refused a malformed call (${problem}); nothing was changed.`);
  forbidden();
}

/** The form data of an action a form calls directly (`<form action={…}>`): its one argument. */
export function formArgument(action: string, formData: unknown): FormData {
  if (!(formData instanceof FormData)) refuseMalformedCall(action, 'its argument is not form data');
  return formData;
}

/**
 * The form data of an action called through useActionState, whose first argument is the state the
 * page holds (an object the action returned before, or the page's initial one) and whose second is the
 * form data. The action reads nothing of the state beyond this check.
 */
export function statefulFormArguments(action: string, previous: unknown, formData: unknown): FormData {
  if (typeof previous !== 'object' || previous === null || Array.isArray(previous)) refuseMalformedCall(action, 'its first argument is not a form state');
  return formArgument(action, formData);
}
