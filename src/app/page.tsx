import { redirect } from 'next/navigation';

/** The dashboard starts at the sessions list (which sends visitors who are not signed in to sign-in). */
export default function Home() {
  redirect('/sessions');
}
