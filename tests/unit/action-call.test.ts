// A server action's call as our pages and React write it, and the calls no form of ours sends, which
// proxy.ts refuses before Next.js fails to decode them.
import { describe, expect, it } from 'vitest';
import { isArgumentList, isFormCall } from '@/lib/session/action-call';
import { formData } from '../support/page-actions';

describe('isArgumentList', () => {
  it.each([
    ['a form of useActionState', '[{"email":""},"$K1"]'],
    ['a form called alone', '["$K1"]'],
    ['a state holding a string that begins with $ (escaped)', '[{"values":{"name":"$$money"}},"$K1"]'],
    ['the values JSON cannot write', '[{"a":"$undefined","b":"$NaN","c":"$Infinity","d":"$-Infinity","e":"$-0"},"$K1"]'],
    ['an empty list (the action checks its arguments itself)', '[]'],
  ])('takes %s', (_label, text) => {
    expect(isArgumentList(text)).toBe(true);
  });

  it.each([
    ['JSON cut short', '['],
    ['a string', '"x"'],
    ['an object', '{}'],
    ['nothing', ''],
    ['no text at all', null],
    ['a Map of a part that is not there', '[{},"$Q5"]'],
    ['a promise of a part that is not there', '[{},"$@5"]'],
    ['a server function', '[{},"$h1"]'],
    ['a bigint that is no number', '[{},"$n1x"]'],
    ['a reference nested in the state', '[{"a":[{"b":"$W2"}]},"$K1"]'],
    ['form data named by something else than digits', '[{},"$Kx"]'],
  ])('refuses %s', (_label, text) => {
    expect(isArgumentList(text)).toBe(false);
  });
});

describe('isFormCall', () => {
  const id = '40996e9fd7f6eaf9c75aa7fcd49b3296269acad6b4';

  it.each([
    ['an action named alone', [[`$ACTION_ID_${id}`, ''], ['email', 'a@b.c']]],
    ['a stateful form, as the page writes it', [['$ACTION_REF_1', ''], ['$ACTION_1:0', JSON.stringify({ id, bound: '$@1' })], ['$ACTION_1:1', '[{"email":""}]'], ['$ACTION_KEY', 'k1']]],
    ['a form bound to nothing', [['$ACTION_REF_1', ''], ['$ACTION_1:0', JSON.stringify({ id, bound: null })]]],
    ['a post that is no action', [['email', 'a@b.c']]],
  ] as [string, [string, string][]][])('takes %s', (_label, fields) => {
    expect(isFormCall(formData(fields))).toBe(true);
  });

  it.each([
    ['a head that does not parse', [['$ACTION_REF_1', ''], ['$ACTION_1:0', '{']]],
    ['a head that is no object', [['$ACTION_REF_1', ''], ['$ACTION_1:0', '"x"']]],
    ['no head', [['$ACTION_REF_1', '']]],
    ['a head without an id', [['$ACTION_REF_1', ''], ['$ACTION_1:0', '{"bound":null}']]],
    ['bound arguments in a part that is not there', [['$ACTION_REF_1', ''], ['$ACTION_1:0', JSON.stringify({ id, bound: '$@9' })]]],
    ['bound arguments that do not parse', [['$ACTION_REF_1', ''], ['$ACTION_1:0', JSON.stringify({ id, bound: '$@1' })], ['$ACTION_1:1', '{']]],
    ['bound arguments that are no list', [['$ACTION_REF_1', ''], ['$ACTION_1:0', JSON.stringify({ id, bound: '$@1' })], ['$ACTION_1:1', '"x"']]],
    ['bound arguments holding a reference', [['$ACTION_REF_1', ''], ['$ACTION_1:0', JSON.stringify({ id, bound: '$@1' })], ['$ACTION_1:1', '["$Q2"]']]],
  ] as [string, [string, string][]][])('refuses %s', (_label, fields) => {
    expect(isFormCall(formData(fields))).toBe(false);
  });
});
