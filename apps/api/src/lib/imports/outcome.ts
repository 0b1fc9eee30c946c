/**
 * What an import row does: what it creates ("student and contract") and what it changes, each field named by its
 * column's title as the template heads it ("student: City", "IBAN, BIC"); neither when the row changes nothing.
 * The row functions say what, `importRowLine` words it once, in the tense of the run.
 */
export interface ImportOutcome {
  creates?: string;
  updates?: string;
}

/** The words of a row's line: a preview says what the row will do, the run what it did. */
export function importRowWords(preview: boolean) {
  return preview
    ? { created: 'Will create', updated: 'Will update', alsoUpdated: 'and update', unchanged: 'Nothing to change' }
    : { created: 'Created', updated: 'Updated', alsoUpdated: 'and updated', unchanged: 'Unchanged' };
}

/**
 * "Will create student and contract", "Will update student: City" in a preview; "Created …", "Updated …" and
 * "Unchanged" once done. The line begins with the words the run's final event counts by (`importRowWords`).
 */
export function importRowLine({ creates, updates }: ImportOutcome, preview: boolean): string {
  const w = importRowWords(preview);
  if (creates) return `${w.created} ${creates}${updates ? ` ${w.alsoUpdated} ${updates}` : ''}`;
  return updates ? `${w.updated} ${updates}` : w.unchanged;
}
