import type { Command } from 'commander';
import type { CliRun } from '../io.js';
import type { BookshelfSortValue } from '../../domain/books.js';
import { toJson } from '../../inspect/format.js';
import { bookshelf, SORT_NAMES, type ShelfTab } from '../../inspect/shelf.js';
import { openStore } from '../../store/open.js';
import { UsageError } from '../exit.js';

export function registerShelf(program: Command, io: CliRun): void {
  program
    .command('shelf')
    .description("show the bookshelf as the app does: visible tabs in order, each tab's books with progress and latest chapter; read-only")
    .argument('<store>', 'the store file')
    .option('--group <name>', 'only this tab (a group name: 全部, 本地, or one of yours)')
    .option('--sort <n>', "the app's global bookshelf order for groups without their own: 0 last read, 1 latest chapter, 2 name, 3 manual", '0')
    .option('--json', 'print JSON')
    .addHelpText('after', '\nExample:\n  $ legado-store shelf legado.db --group 科幻\n')
    .action((storePath: string, flags: { group?: string; sort: string; json?: boolean }) => {
      if (!/^[0-3]$/.test(flags.sort)) throw new UsageError(`--sort must be 0, 1, 2 or 3, not ${JSON.stringify(flags.sort)}`);
      const store = openStore(storePath, { create: false, readonly: true });
      try {
        const tabs = bookshelf(store, {
          ...(flags.group !== undefined ? { group: flags.group } : {}),
          defaultSort: Number(flags.sort) as BookshelfSortValue,
        });
        io.stdout.write(flags.json ? toJson(tabs) + '\n' : renderShelf(tabs));
      } finally {
        store.close();
      }
    });
}

function renderShelf(tabs: readonly ShelfTab[]): string {
  const lines: string[] = [];
  for (const tab of tabs) {
    lines.push(`${tab.name} (${tab.books.length} book${tab.books.length === 1 ? '' : 's'}, by ${SORT_NAMES[tab.sort]})`);
    for (const b of tab.books) {
      const progress = b.totalChapters > 0 ? `${b.chapter}/${b.totalChapters}` : '-';
      const groups = b.groups.length ? `  [${b.groups.join(', ')}]` : '';
      lines.push(`  ${b.name} / ${b.author}${groups}`);
      lines.push(
        `      read ${progress}${b.chapterTitle ? ` ${b.chapterTitle}` : ''}${b.unread ? ` (${b.unread} unread)` : ''}; latest: ${b.latestChapterTitle ?? '-'}`,
      );
    }
  }
  return lines.join('\n') + '\n';
}
