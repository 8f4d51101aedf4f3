// @ts-check
// A local ESLint rule: a JSDoc block (`/** … */`) documents the code right below it,
// so one that nothing follows directly is a description lost or left in the wrong
// place (an editor shows the other block, or none, on hover). Reported:
//   - a JSDoc block followed by another comment (the first is orphaned: two blocks
//     stacked over one declaration, or one whose declaration moved away);
//   - a JSDoc block followed by a blank line, a closing brace, or the end of the file.
// A file's header, above its first line of code, is free to stand alone.

/** @type {import('eslint').Rule.RuleModule} */
export const jsdocPlacement = {
  meta: {
    type: 'problem',
    docs: { description: 'a JSDoc block sits directly above the code it documents' },
    schema: [],
    messages: {
      stacked: 'This JSDoc block documents nothing: another comment follows it. Merge the two, or move this one to the code it describes.',
      detached: 'This JSDoc block documents nothing: {{what}} follows it. Put it directly above the code it describes, or make it a // comment.',
    },
  },
  create(context) {
    const source = context.sourceCode;
    return {
      Program() {
        for (const comment of source.getAllComments()) {
          if (comment.type !== 'Block' || !comment.value.startsWith('*') || comment.value.startsWith('**')) continue;
          // The file's header, before any code.
          if (source.getTokenBefore(comment, { includeComments: false }) === null) continue;
          const next = source.getTokenAfter(comment, { includeComments: true });
          const loc = comment.loc;
          if (!loc) continue;
          if (next === null) {
            context.report({ loc, messageId: 'detached', data: { what: 'the end of the file' } });
          } else if (next.type === 'Block' || next.type === 'Line') {
            context.report({ loc, messageId: 'stacked' });
          } else if (next.loc && next.loc.start.line > loc.end.line + 1) {
            context.report({ loc, messageId: 'detached', data: { what: 'a blank line' } });
          } else if (next.value === '}' || next.value === ')' || next.value === ']') {
            context.report({ loc, messageId: 'detached', data: { what: `a closing "${next.value}"` } });
          }
        }
      },
    };
  },
};

export default { rules: { 'jsdoc-placement': jsdocPlacement } };
