// Users (docs/protocol.md §5.6): GetUsers (by `type`, paged, IMS), GetUser, CreateUser, UpdateUsers,
// UpdateUser, DeleteUser, one file each. Users are documents of the `users` collection (seeded from
// DEMO_USERS; `sandbox.user(ctx)` reads them). Rules: licences count active users
// (`org.license_details.users_license_purchased`), e-mails are unique, a confirmed user's e-mail is
// fixed, the primary contact (org `primary_email`) can be neither deactivated nor deleted, a
// deleted user stays listed under `DeletedUsers` and cannot be updated.
// Helpers, the seed and the field checks in shared.ts.
import type { Router } from '../../router.ts';
import type { Sandbox } from '../../types.ts';
import { seedOnce } from '../shared.ts';
import { createUser } from './create-user.ts';
import { deleteUser } from './delete-user.ts';
import { getUser } from './get-user.ts';
import { getUsers } from './get-users.ts';
import { seedUsers } from './shared.ts';
import { updateUser } from './update-user.ts';
import { updateUsers } from './update-users.ts';

export function registerUsers(router: Router, sandbox: Sandbox): void {
	seedOnce(sandbox, 'users', seedUsers);
	router.register([getUsers, getUser, createUser, updateUsers, updateUser, deleteUser]);
}
