-- Program and university short names are unique without case (decision 038): the contract import finds them
-- without case, and 'MSC-Z' beside 'msc-z' matched both. A unique index cannot be NOT VALID (as 0035's check is)
-- and a migration that stops would stop the server from starting, so names that clash already are renamed first:
-- in each group the short name in capitals (as short names are written; the KIT report looks for 'KIT'), else the
-- oldest, is kept, and every other one gets `~{id}` appended ('msc-z' → 'msc-z~7'). Each rename is an Update event
-- of the record. Contracts and payments refer to the id and are not touched. The exact-case constraints stay (the
-- seeds' ON CONFLICT (shortname) names them).
DO $$
DECLARE
  t record;
  r record;
  renamed text;
  taken boolean;
BEGIN
  FOR t IN SELECT * FROM (VALUES ('programs', 'program', 'Program'), ('universities', 'university', 'University')) AS v(tbl, resource, title) LOOP
    FOR r IN EXECUTE format($q$
      SELECT id, shortname, keeper FROM (
        SELECT id, shortname, first_value(shortname) OVER w AS keeper, row_number() OVER w AS n
        FROM %I
        WINDOW w AS (PARTITION BY lower(shortname) ORDER BY (shortname = upper(shortname)) DESC, id)
      ) clashing
      WHERE n > 1
      ORDER BY id$q$, t.tbl)
    LOOP
      renamed := left(r.shortname, 50 - length('~' || r.id)) || '~' || r.id;
      EXECUTE format('SELECT EXISTS (SELECT 1 FROM %I WHERE lower(shortname) = lower($1) AND id <> $2)', t.tbl) INTO taken USING renamed, r.id;
      IF taken THEN
        RAISE EXCEPTION '% short name "%" cannot be renamed to "%": that name is taken too. Rename one of them by hand, then start again', t.title, r.shortname, renamed;
      END IF;
      EXECUTE format('UPDATE %I SET shortname = $1, edit_timestamp = greatest(clock_timestamp(), edit_timestamp + interval ''1 millisecond'') WHERE id = $2', t.tbl)
        USING renamed, r.id;
      INSERT INTO log_events (eventtype_id, le_message, resource, record_id, changes)
      VALUES (
        5,
        format('Updated %s "%s": shortname "%s" → "%s" (short names are unique without case, and %s "%s" has this one)', t.title, renamed, r.shortname, renamed, t.title, r.keeper),
        t.resource,
        r.id,
        jsonb_build_object('shortname', jsonb_build_object('old', r.shortname, 'new', renamed))
      );
      RAISE NOTICE '% short name "%" renamed to "%": % "%" has the same one without case', t.title, r.shortname, renamed, t.title, r.keeper;
    END LOOP;
  END LOOP;
END $$;--> statement-breakpoint
CREATE UNIQUE INDEX "programs_shortname_lower_idx" ON "programs" USING btree (lower("shortname"));--> statement-breakpoint
CREATE UNIQUE INDEX "universities_shortname_lower_idx" ON "universities" USING btree (lower("shortname"));