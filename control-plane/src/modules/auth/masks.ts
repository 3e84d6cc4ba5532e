/**
 * Masks of the forgot-password wizard (document 2, §9): the phone with its first 3 and last 4
 * digits hidden, the e-mail with only its first character shown (the domain stays readable so the
 * user knows which mailbox to open).
 */
export function maskPhone(phone: string): string {
  if (phone.length <= 7) return '*'.repeat(phone.length);
  return `***${phone.slice(3, -4)}****`;
}

export function maskEmail(email: string): string {
  const at = email.lastIndexOf('@');
  if (at <= 0) return `${email.slice(0, 1)}***`;
  return `${email.slice(0, 1)}***${email.slice(at)}`;
}
