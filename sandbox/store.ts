// The one store of the sandbox, on Node's built-in SQLite (a file, or `:memory:`).
// Records live in one table (module, id, seq, JSON data); every other entity (settings, tokens,
// channels, jobs, files, ...) is a JSON document in a named collection. Store methods answer
// `undefined` for "absent" and leave HTTP to the group modules. Every record change is published
// as a ChangeEvent, which feeds notification deliveries.
import { DatabaseSync } from 'node:sqlite';
import type { StatementSync } from 'node:sqlite';

import { parseDateTime } from './time.ts';

export type Json = Record<string, unknown>;

export interface UserRef {
	id: string;
	name: string;
	email?: string;
}

export type ChangeOperation = 'insert' | 'update' | 'delete';

interface RecordChange {
	id: string;
	/** field API names changed (update) or set (insert) */
	fields: string[];
	values: Json;
}

export interface ChangeEvent {
	module: string;
	operation: ChangeOperation;
	changes: RecordChange[];
	/** made through a related-record operation (link, delink, related update) */
	related?: boolean;
	/** API version the originating request used */
	v?: string;
}

export interface StoredRecord extends Json {
	id: string;
}

export interface DeletedEntry {
	id: string;
	module: string;
	display_name: string;
	type: 'recycle' | 'permanent';
	deleted_time: number;
	deleted_by: UserRef;
	created_by: UserRef;
}

interface ListOptions {
	offset?: number;
	limit?: number;
	ids?: string[];
	sortBy?: string;
	sortOrder?: 'asc' | 'desc';
	modifiedSince?: number;
	/** converted leads: `false` hides them, `true` lists only them, absent lists both */
	converted?: boolean;
}

/** Counters of the store's work, for tests that check the cost of a request without timing it. */
interface StoreStats {
	/** record rows decoded from the `records` table (each one a JSON parse) */
	recordRowsRead: number;
}

const ID_PREFIX = '4876876';

/**
 * Change times are kept at whole seconds: DateTime values on the wire have no fraction (§4), so
 * If-Modified-Since comparisons must not see a change "after" the Modified_Time a client read (§3.7).
 */
const toSecond = (ms: number): number => Math.floor(ms / 1000) * 1000;

/**
 * The `modified` column of a record row: when the row last changed, and never before the record's
 * own Created_Time or Modified_Time. A lower bound on either field is then a lower bound on the
 * column, which lets a query skip older rows in the index before decoding any (COQL, `coql.ts`).
 */
const modifiedColumn = (record: StoredRecord, modified: number): number =>
	toSecond(
		Math.max(
			modified,
			parseDateTime(record.Modified_Time) ?? 0,
			parseDateTime(record.Created_Time) ?? 0,
		),
	);

export class Store {
	readonly db: DatabaseSync;
	private listeners: Array<(event: ChangeEvent) => void> = [];
	private batchDepth = 0;
	private pending: ChangeEvent[] = [];
	private lookups = new Map<string, StatementSync>();
	private sortIndexes = new Set<string>();
	readonly stats: StoreStats = { recordRowsRead: 0 };

	constructor(path = ':memory:') {
		this.db = new DatabaseSync(path);
		this.db.exec(`
			PRAGMA journal_mode = WAL;
			PRAGMA synchronous = NORMAL;
			CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
			CREATE TABLE IF NOT EXISTS records (
				id TEXT PRIMARY KEY, module TEXT NOT NULL, seq INTEGER NOT NULL,
				modified INTEGER NOT NULL, data TEXT NOT NULL);
			CREATE INDEX IF NOT EXISTS records_module_seq ON records (module, seq);
			CREATE INDEX IF NOT EXISTS records_module_modified ON records (module, modified);
			CREATE TABLE IF NOT EXISTS deleted (
				id TEXT PRIMARY KEY, module TEXT NOT NULL, seq INTEGER NOT NULL, data TEXT NOT NULL);
			CREATE INDEX IF NOT EXISTS deleted_module ON deleted (module, seq);
			CREATE TABLE IF NOT EXISTS docs (
				coll TEXT NOT NULL, id TEXT NOT NULL, seq INTEGER NOT NULL, data TEXT NOT NULL,
				PRIMARY KEY (coll, id));
			CREATE INDEX IF NOT EXISTS docs_coll_seq ON docs (coll, seq);
		`);
		this.migrateConverted();
	}

	/**
	 * `converted` mirrors a record's `$converted` flag as a column, so listings that hide converted
	 * leads (the default of GetRecords) filter in the index instead of decoding every row. Stores
	 * written before the column existed get it here, filled from the JSON.
	 */
	private migrateConverted(): void {
		const columns = this.db.prepare('PRAGMA table_info(records)').all() as Array<{ name: string }>;
		if (!columns.some((c) => c.name === 'converted')) {
			this.db.exec(`
				ALTER TABLE records ADD COLUMN converted INTEGER NOT NULL DEFAULT 0;
				UPDATE records SET converted = 1 WHERE json_extract(data, '$."$converted"') = 1;
			`);
		}
		this.db.exec(
			'CREATE INDEX IF NOT EXISTS records_module_converted_seq ON records (module, converted, seq)',
		);
	}

	close(): void {
		this.db.close();
	}

	// ---- ids and meta -------------------------------------------------------------------------

	getMeta(key: string): string | undefined {
		const row = this.db.prepare('SELECT value FROM meta WHERE key = ?').get(key) as
			| { value: string }
			| undefined;
		return row?.value;
	}

	setMeta(key: string, value: string): void {
		this.db
			.prepare(
				'INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value',
			)
			.run(key, value);
	}

	private counter(name: string, start: number): number {
		const next = Number(this.getMeta(name) ?? start) + 1;
		this.setMeta(name, String(next));
		return next;
	}

	/** 19-digit numeric string id, never a JS number (ids exceed 2^53 on the wire, §3.1). */
	nextId(): string {
		return ID_PREFIX + String(this.counter('id_counter', 611_000)).padStart(12, '0');
	}

	private nextSeq(): number {
		return this.counter('seq_counter', 0);
	}

	// ---- transactions and change events ------------------------------------------------------

	/** Runs fn in one SQLite transaction; change events are published after commit. */
	transaction<T>(fn: () => T): T {
		const outer = this.batchDepth === 0;
		this.batchDepth++;
		if (outer) this.db.exec('BEGIN');
		try {
			const result = fn();
			if (outer) this.db.exec('COMMIT');
			return result;
		} catch (error) {
			if (outer) {
				this.db.exec('ROLLBACK');
				this.pending = [];
			}
			throw error;
		} finally {
			this.batchDepth--;
			if (outer) this.flush();
		}
	}

	onChange(listener: (event: ChangeEvent) => void): () => void {
		this.listeners.push(listener);
		return () => {
			this.listeners = this.listeners.filter((l) => l !== listener);
		};
	}

	/** Queues a change; one event per module and operation per transaction (one delivery per request, §9.4). */
	emit(event: ChangeEvent): void {
		const same = this.pending.find(
			(e) =>
				e.module === event.module &&
				e.operation === event.operation &&
				!!e.related === !!event.related,
		);
		if (same) same.changes.push(...event.changes);
		else this.pending.push({ ...event, changes: [...event.changes] });
		if (this.batchDepth === 0) this.flush();
	}

	private flush(): void {
		const events = this.pending;
		this.pending = [];
		for (const event of events) for (const listener of this.listeners) listener(event);
	}

	// ---- records -----------------------------------------------------------------------------

	/** Decodes record rows, counting them (stats.recordRowsRead). */
	private decode(rows: Array<{ data: string }>): StoredRecord[] {
		this.stats.recordRowsRead += rows.length;
		return rows.map((r) => JSON.parse(r.data) as StoredRecord);
	}

	/** `decode` as the caller walks: a walk that stops early does not pay for the rows after it. */
	private *decodeLazily(rows: Array<{ data: string }>): Generator<StoredRecord> {
		this.stats.recordRowsRead += rows.length;
		for (const row of rows) yield JSON.parse(row.data) as StoredRecord;
	}

	getRecord(module: string, id: string): StoredRecord | undefined {
		const row = this.db
			.prepare('SELECT data FROM records WHERE module = ? AND id = ?')
			.get(module, id) as { data: string } | undefined;
		return row ? this.decode([row])[0] : undefined;
	}

	/** Finds a record by any module, for lookups whose target module is not fixed. */
	getRecordAnyModule(id: string): { module: string; record: StoredRecord } | undefined {
		const row = this.db.prepare('SELECT module, data FROM records WHERE id = ?').get(id) as
			| { module: string; data: string }
			| undefined;
		return row ? { module: row.module, record: JSON.parse(row.data) as StoredRecord } : undefined;
	}

	/**
	 * Lookups by a field value (external ids, unique and duplicate-check fields) run on every write:
	 * each field gets an expression index on first use, so a check is an index probe, not a scan.
	 */
	private fieldLookup(field: string, caseInsensitive: boolean): StatementSync {
		if (!/^[A-Za-z0-9_$]+$/.test(field)) throw new Error(`unsupported field name ${field}`);
		const key = `${caseInsensitive ? 'ci' : 'eq'}:${field}`;
		let stmt = this.lookups.get(key);
		if (!stmt) {
			const expr = caseInsensitive
				? `lower(json_extract(data, '$."${field}"'))`
				: `json_extract(data, '$."${field}"')`;
			const name = `records_${caseInsensitive ? 'ci' : 'eq'}_${field.replace(/\$/g, '_')}`;
			this.db.exec(`CREATE INDEX IF NOT EXISTS "${name}" ON records (module, ${expr})`);
			stmt = this.db.prepare(
				// `INDEXED BY` keeps the planner off the (module, seq) index that ORDER BY would tempt it to scan
				`SELECT data FROM records INDEXED BY "${name}" WHERE module = ? AND ${expr} = ${caseInsensitive ? 'lower(?)' : '?'} ORDER BY seq LIMIT 1`,
			);
			this.lookups.set(key, stmt);
		}
		return stmt;
	}

	findRecordBy(module: string, field: string, value: unknown): StoredRecord | undefined {
		const row = this.fieldLookup(field, false).get(module, value as string) as
			| { data: string }
			| undefined;
		return row ? (JSON.parse(row.data) as StoredRecord) : undefined;
	}

	/** Case-insensitive match on a text field (duplicate checks on Email and names). */
	findRecordByText(module: string, field: string, value: string): StoredRecord | undefined {
		const row = this.fieldLookup(field, true).get(module, value) as { data: string } | undefined;
		return row ? (JSON.parse(row.data) as StoredRecord) : undefined;
	}

	countRecords(module: string, modifiedSince?: number): number {
		const row = (
			modifiedSince === undefined
				? this.db.prepare('SELECT count(*) AS n FROM records WHERE module = ?').get(module)
				: this.db
						.prepare('SELECT count(*) AS n FROM records WHERE module = ? AND modified > ?')
						.get(module, modifiedSince)
		) as { n: number };
		return row.n;
	}

	/**
	 * The SQL of a listing. Paging is SQL `LIMIT/OFFSET` over an index whose order is the listing's
	 * order ((module, converted, seq), or a per-field sort index), so a page decodes only its own rows
	 * and never sorts the module; rows skipped by OFFSET are index steps only.
	 */
	private listQuery(
		module: string,
		options: ListOptions,
	): { sql: string; args: Array<string | number> } {
		const where = ['module = ?'];
		const args: Array<string | number> = [module];
		if (options.converted !== undefined) {
			where.push('converted = ?');
			args.push(options.converted ? 1 : 0);
		}
		if (options.ids) {
			where.push(`id IN (${options.ids.map(() => '?').join(',')})`);
			args.push(...options.ids);
		}
		if (options.modifiedSince !== undefined) {
			where.push('modified > ?');
			args.push(options.modifiedSince);
		}
		let order = 'seq ASC';
		if (options.sortBy) {
			const direction = options.sortOrder === 'asc' ? 'ASC' : 'DESC';
			const expr = this.sortIndex(options.sortBy, direction, options.converted !== undefined);
			order = `${expr} ${direction}, seq ASC`;
		}
		args.push(options.limit ?? -1, options.offset ?? 0);
		return {
			sql: `SELECT data FROM records WHERE ${where.join(' AND ')} ORDER BY ${order} LIMIT ? OFFSET ?`,
			args,
		};
	}

	/** Creates (once) the expression index that serves ORDER BY a field in one direction; answers the expression. */
	private sortIndex(field: string, direction: 'ASC' | 'DESC', byConverted: boolean): string {
		if (!/^[A-Za-z0-9_]+$/.test(field)) throw new Error(`unsupported sort field ${field}`);
		const expr = `json_extract(data, '$."${field}"')`;
		const name = `records_sort_${byConverted ? 'c_' : ''}${direction.toLowerCase()}_${field}`;
		if (!this.sortIndexes.has(name)) {
			this.db.exec(
				`CREATE INDEX IF NOT EXISTS "${name}" ON records (module, ${byConverted ? 'converted, ' : ''}${expr} ${direction}, seq ASC)`,
			);
			this.sortIndexes.add(name);
		}
		return expr;
	}

	listRecords(module: string, options: ListOptions = {}): StoredRecord[] {
		const { sql, args } = this.listQuery(module, options);
		return this.decode(this.db.prepare(sql).all(...args) as Array<{ data: string }>);
	}

	/** `EXPLAIN QUERY PLAN` of the listing `listRecords` would run (test hook: index use, no temp sort). */
	explainList(module: string, options: ListOptions = {}): string[] {
		const { sql, args } = this.listQuery(module, options);
		return (
			this.db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all(...args) as Array<{ detail: string }>
		).map((r) => r.detail);
	}

	/**
	 * Walks a listing in its order, `batch` rows per query, until `visit` answers false: for filters
	 * the SQL cannot express, a page then costs the rows up to its end, not the module.
	 */
	scanRecords(
		module: string,
		options: Omit<ListOptions, 'offset' | 'limit'>,
		visit: (record: StoredRecord) => boolean,
		batch = 500,
	): void {
		for (let offset = 0; ; offset += batch) {
			const rows = this.listRecords(module, { ...options, offset, limit: batch });
			for (const row of rows) if (!visit(row)) return;
			if (rows.length < batch) return;
		}
	}

	/**
	 * Iterates a module's records in insertion order without loading them all at once. With
	 * `modifiedFrom` (epoch ms), only rows whose `modified` column is at or after it, skipped in SQL
	 * and never decoded: when few rows are that recent (a poll's window), they are read from the
	 * `modified` index in one query; otherwise the walk in insertion order filters on the column.
	 */
	*iterateRecords(
		module: string,
		options: { modifiedFrom?: number } = {},
		batch = 5000,
	): Generator<StoredRecord> {
		const from = options.modifiedFrom === undefined ? undefined : toSecond(options.modifiedFrom);
		if (from !== undefined) {
			const { n } = this.db
				.prepare('SELECT count(*) AS n FROM records WHERE module = ? AND modified >= ?')
				.get(module, from) as { n: number };
			if (n <= batch) {
				const rows = this.db
					.prepare(
						'SELECT data FROM records INDEXED BY records_module_modified WHERE module = ? AND modified >= ? ORDER BY seq',
					)
					.all(module, from) as Array<{ data: string }>;
				yield* this.decodeLazily(rows);
				return;
			}
		}
		const stmt = this.db.prepare(
			`SELECT seq, data FROM records INDEXED BY records_module_seq WHERE module = ? AND seq > ?${from === undefined ? '' : ' AND modified >= ?'} ORDER BY seq LIMIT ?`,
		);
		for (let lastSeq = -1; ; ) {
			const args = from === undefined ? [module, lastSeq, batch] : [module, lastSeq, from, batch];
			const rows = stmt.all(...args) as Array<{ seq: number; data: string }>;
			if (rows.length === 0) return;
			yield* this.decodeLazily(rows);
			lastSeq = rows[rows.length - 1].seq;
		}
	}

	latestModified(module: string): number | undefined {
		const row = this.db
			.prepare('SELECT max(modified) AS m FROM records WHERE module = ?')
			.get(module) as { m: number | null };
		const deleted = this.db
			.prepare(
				`SELECT max(json_extract(data, '$.deleted_time')) AS m FROM deleted WHERE module = ?`,
			)
			.get(module) as { m: number | null };
		const m = toSecond(Math.max(row.m ?? 0, deleted.m ?? 0));
		return m === 0 ? undefined : m;
	}

	/** Inserts a record whose system fields the caller already set (id, times, users). */
	insertRecord(module: string, record: StoredRecord, modified: number, v?: string): StoredRecord {
		this.db
			.prepare(
				'INSERT INTO records (id, module, seq, modified, converted, data) VALUES (?, ?, ?, ?, ?, ?)',
			)
			.run(
				record.id,
				module,
				this.nextSeq(),
				modifiedColumn(record, modified),
				record.$converted === true ? 1 : 0,
				JSON.stringify(record),
			);
		this.emit({
			module,
			operation: 'insert',
			v,
			changes: [{ id: record.id, fields: Object.keys(record), values: record }],
		});
		return record;
	}

	/** Replaces a record's data; publishes the fields whose values changed. */
	replaceRecord(
		module: string,
		record: StoredRecord,
		modified: number,
		changed: Json,
		options: { v?: string; related?: boolean; silent?: boolean } = {},
	): StoredRecord {
		this.db
			.prepare(
				'UPDATE records SET data = ?, modified = ?, converted = ? WHERE module = ? AND id = ?',
			)
			.run(
				JSON.stringify(record),
				modifiedColumn(record, modified),
				record.$converted === true ? 1 : 0,
				module,
				record.id,
			);
		if (!options.silent) {
			this.emit({
				module,
				operation: 'update',
				v: options.v,
				related: options.related,
				changes: [{ id: record.id, fields: Object.keys(changed), values: changed }],
			});
		}
		return record;
	}

	deleteRecord(module: string, id: string, entry: DeletedEntry, v?: string): boolean {
		const existing = this.getRecord(module, id);
		if (!existing) return false;
		this.db.prepare('DELETE FROM records WHERE module = ? AND id = ?').run(module, id);
		this.db
			.prepare('INSERT OR REPLACE INTO deleted (id, module, seq, data) VALUES (?, ?, ?, ?)')
			.run(id, module, this.nextSeq(), JSON.stringify(entry));
		this.emit({ module, operation: 'delete', v, changes: [{ id, fields: [], values: {} }] });
		return true;
	}

	listDeleted(
		module: string,
		type: 'all' | 'recycle' | 'permanent',
		since?: number,
	): DeletedEntry[] {
		const rows = this.db
			.prepare('SELECT data FROM deleted WHERE module = ? ORDER BY seq DESC')
			.all(module) as Array<{
			data: string;
		}>;
		return rows
			.map((r) => JSON.parse(r.data) as DeletedEntry)
			.filter(
				(e) =>
					(type === 'all' || e.type === type) &&
					(since === undefined || toSecond(e.deleted_time) > since),
			);
	}

	// ---- documents ---------------------------------------------------------------------------

	doc<T = Json>(coll: string, id: string): T | undefined {
		const row = this.db.prepare('SELECT data FROM docs WHERE coll = ? AND id = ?').get(coll, id) as
			| { data: string }
			| undefined;
		return row ? (JSON.parse(row.data) as T) : undefined;
	}

	docs<T = Json>(coll: string): T[] {
		return (
			this.db.prepare('SELECT data FROM docs WHERE coll = ? ORDER BY seq').all(coll) as Array<{
				data: string;
			}>
		).map((r) => JSON.parse(r.data) as T);
	}

	putDoc(coll: string, id: string, data: unknown): void {
		const existing = this.db
			.prepare('SELECT seq FROM docs WHERE coll = ? AND id = ?')
			.get(coll, id) as { seq: number } | undefined;
		if (existing) {
			this.db
				.prepare('UPDATE docs SET data = ? WHERE coll = ? AND id = ?')
				.run(JSON.stringify(data), coll, id);
		} else {
			this.db
				.prepare('INSERT INTO docs (coll, id, seq, data) VALUES (?, ?, ?, ?)')
				.run(coll, id, this.nextSeq(), JSON.stringify(data));
		}
	}

	deleteDoc(coll: string, id: string): boolean {
		return (
			Number(this.db.prepare('DELETE FROM docs WHERE coll = ? AND id = ?').run(coll, id).changes) >
			0
		);
	}

	clearDocs(coll: string): void {
		this.db.prepare('DELETE FROM docs WHERE coll = ?').run(coll);
	}
}
