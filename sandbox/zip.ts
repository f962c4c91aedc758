// Zip files for the bulk jobs (docs/protocol.md §10.3) on fflate: the archive container (headers,
// central directory) is fflate's; the entries are DEFLATE-compressed by node:zlib (stored when that
// is not smaller), which is faster than fflate's own deflate on the large bulk-read exports.
import { crc32, deflateRawSync } from 'node:zlib';

import { Zip, unzipSync } from 'fflate';
import type { ZipInputFile } from 'fflate';

interface ZipEntry {
	name: string;
	data: Buffer;
}

/** Builds a zip archive; entries are DEFLATE-compressed (stored when that is not smaller). */
export function writeZip(entries: ZipEntry[], modified: Date = new Date()): Buffer {
	const chunks: Uint8Array[] = [];
	const zip = new Zip((error, chunk) => {
		if (error) throw error;
		chunks.push(chunk);
	});
	for (const entry of entries) {
		const deflated = deflateRawSync(entry.data);
		const stored = deflated.length >= entry.data.length;
		// an entry whose bytes are already compressed: fflate writes them as given
		const file: ZipInputFile = {
			filename: entry.name,
			size: entry.data.length,
			crc: crc32(entry.data) >>> 0,
			compression: stored ? 0 : 8,
			mtime: modified,
		};
		zip.add(file);
		file.ondata!(null, (stored ? entry.data : deflated) as Uint8Array<ArrayBuffer>, true);
	}
	zip.end();
	return Buffer.concat(chunks);
}

/** True when the bytes start like a zip archive (local header or empty-archive end record). */
export function looksLikeZip(data: Buffer): boolean {
	return (
		data.length >= 22 &&
		(data.readUInt32LE(0) === 0x04034b50 || data.readUInt32LE(0) === 0x06054b50)
	);
}

/** Reads every file entry of a zip (directories skipped); throws an Error for anything malformed. */
export function readZip(data: Buffer): ZipEntry[] {
	if (!looksLikeZip(data)) throw new Error('not a zip archive');
	return Object.entries(unzipSync(data))
		.filter(([name]) => !name.endsWith('/'))
		.map(([name, content]) => ({ name, data: Buffer.from(content) }));
}
