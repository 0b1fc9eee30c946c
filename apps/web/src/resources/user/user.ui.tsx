import { userResource } from '@app/contracts';
import { defineResourceUi } from '../../machinery/resource-ui';
import { SetPasswordButton } from './user.extras';
import { userFields } from './user.fields';

/** Users: never deleted (the descriptor says so, so there is no Delete), no advanced search (spec §2, §6). */
export const userUi = defineResourceUi({
  descriptor: userResource,
 
  fields: userFields,
  detail: { extras: (detail) => <SetPasswordButton detail={detail} /> },
});
