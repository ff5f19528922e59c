import type { Command } from 'commander';
import type { CliRun } from '../io.js';
import { SQLITE_COMPANIONS, writeFileSafely } from '../../fs/safe-write.js';
import { inspectFile, openStore } from '../../store/open.js';
import { fillSample } from '../../sample/sample.js';
import { NEWEST_VERSION } from '../../schema/index.js';
import type { Store } from '../../store/store.js';
import { forceOption } from '../exit.js';
import { renderInspection } from '../report.js';

export function registerDemo(program: Command, io: CliRun): void {
  program
    .command('demo')
    .description('create a store file filled with a small made-up sample, and show what is in it (an existing file is refused unless --force)')
    .argument('[file]', 'the database file to write', 'legado-demo.db')
    .addOption(forceOption('an existing file'))
    .action((file: string, opts: { force?: boolean }) => {
      // The sample is written to a temporary file that replaces `file` only once complete.
      writeFileSafely(
        file,
        (temp) => {
          // At the newest schema, as every new store; the sample's rows are the spec's (62), every
          // field of which the later versions keep.
          const store = openStore(temp, { schema: NEWEST_VERSION }) as unknown as Store<62>;
          try {
            fillSample(store);
          } finally {
            store.close();
          }
        },
        { overwrite: opts.force, purpose: 'the demo store', companions: SQLITE_COMPANIONS },
      );
      const store = openStore(file) as unknown as Store<62>;
      try {
        io.stdout.write(describeShelf(store));
      } finally {
        store.close();
      }
      io.stdout.write('\n' + renderInspection(inspectFile(file)));
    });
}

/** What a reader shows first: the visible bookshelf tabs, then the "全部" tab, last read first. */
function describeShelf(store: Store<62>): string {
  const tabs = store.bookGroups.visible().map((g) => g.groupName);
  const lines = [`bookshelf tabs: ${tabs.join(' | ')}`, 'bookshelf (全部, last read first):'];
  for (const b of store.books.shelf(-1)) {
    const groups = store.bookGroups.namesOf(b.group).join(', ') || '-';
    lines.push(`  ${b.name} / ${b.author}: ${store.chapters.count(b.bookUrl)} chapters, at ${b.durChapterTitle ?? '-'}, groups ${groups}`);
  }
  return lines.join('\n') + '\n';
}
