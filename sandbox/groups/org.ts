// Organisation (docs/protocol.md §5.6): GetOrganization, UploadOrganizationPhoto.
// The org is one document of the `org` collection (seeded from DEMO_ORG); this group enriches it
// with the remaining Org fields once. `mc_status` and the currency fields follow the currencies group.
import { HttpError } from '../errors.ts';
import { PHOTO_UPLOADED, uploadedImage } from '../files.ts';
import { contentDisposition } from '../http.ts';
import type { Router } from '../router.ts';
import { operation } from '../router.ts';
import type { Sandbox } from '../types.ts';
import { seedOnce } from './shared.ts';
import type { Json } from '../store.ts';

const ORG_READ = [['CRM.org.READ']];
const ORG_WRITE = [['CRM.org.CREATE', 'CRM.org.UPDATE']];

/** Org keys only the v2.1 variant carries (§13). */
const V21_ONLY_KEYS = ['hierarchy_preferences', 'hipaa_compliance_enabled'];

const ORG_PHOTOS = 'org_photo';

/** The organisation document (there is exactly one). */
export function orgDoc(sandbox: Sandbox): Json {
	const org = sandbox.store.docs<Json>('org')[0];
	if (!org) throw new HttpError('INTERNAL_ERROR', {}, 'Internal server error occurred.');
	return org;
}

export function putOrg(sandbox: Sandbox, org: Json): void {
	sandbox.store.putDoc('org', String(org.id), org);
}

function orgJson(org: Json, v: string): Json {
	const out: Json = { id: org.id, company_name: org.company_name, ...org };
	if (v !== 'v2.1') for (const key of V21_ONLY_KEYS) delete out[key];
	return out;
}

function seedOrg(sandbox: Sandbox): void {
	const org = orgDoc(sandbox);
	const license = (org.license_details ?? {}) as Json;
	putOrg(sandbox, {
		description: 'Demo organisation of the local CRM sandbox',
		employee_count: '120',
		street: '500 Congress Avenue',
		state: 'Texas',
		zip: '78701',
		country_code: 'US',
		fax: null,
		mobile: null,
		alias: 'sandbox',
		currency_locale: 'en_US',
		currency_symbol: '$',
		photo_id: null,
		primary_xuid: '4876876000000000003',
		xia_portal_id: null,
		gapps_enabled: false,
		translation_enabled: false,
		privacy_settings: false,
		mc_status: false,
		hipaa_compliance_enabled: false,
		hierarchy_preferences: { type: 'Role_Hierarchy' },
		...org,
		license_details: {
			trial_type: null,
			trial_expiry: null,
			paid_expiry: '2030-12-31T23:59:59+00:00',
			...license,
		},
	});
}

const getOrganization = operation('GET', '/org', { scopes: ORG_READ }, (ctx) => ({
	body: { org: [orgJson(orgDoc(ctx.sandbox), ctx.v)] },
}));

const uploadOrganizationPhoto = operation('POST', '/org/photo', { scopes: ORG_WRITE }, (ctx) => {
	const { sandbox } = ctx;
	const image = uploadedImage(sandbox, ctx.files, 'invalid file type');
	const photoId = sandbox.store.nextId();
	sandbox.store.transaction(() => {
		sandbox.store.putDoc(ORG_PHOTOS, 'current', {
			id: photoId,
			...image,
			uploaded_by: sandbox.user(ctx),
		});
		putOrg(sandbox, { ...orgDoc(sandbox), photo_id: photoId });
	});
	return PHOTO_UPLOADED;
});

/** test hook: the uploaded photo as stored (the service has no call to read it back); 404 before an upload */
const getOrgPhoto = operation('GET', '/org/photo', { root: 'admin', public: true }, (ctx) => {
	const { sandbox } = ctx;
	const photo = sandbox.store.doc<{ file_name: string; content_type: string; data: string }>(
		ORG_PHOTOS,
		'current',
	);
	if (!photo) throw HttpError.notFound();
	return {
		raw: Buffer.from(photo.data, 'base64'),
		headers: {
			'Content-Type': photo.content_type,
			'Content-Disposition': contentDisposition(photo.file_name),
		},
	};
});

export function registerOrg(router: Router, sandbox: Sandbox): void {
	seedOnce(sandbox, 'org', seedOrg);
	router.register([getOrganization, uploadOrganizationPhoto, getOrgPhoto]);
}
