import { redirect } from 'next/navigation';
import { SETTINGS_HOME } from '@/lib/session/current';

export default function SettingsIndex() {
  redirect(SETTINGS_HOME);
}
