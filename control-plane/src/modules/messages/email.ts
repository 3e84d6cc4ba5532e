import nodemailer from 'nodemailer';

export interface EmailMessage {
  to: string;
  subject: string;
  text: string;
  /** The verification code inside the text (kept by the sandbox outbox). */
  code?: string | undefined;
}

export interface EmailTransport {
  readonly kind: 'smtp' | 'sandbox';
  send(message: EmailMessage): Promise<void>;
}

export interface SmtpSettings {
  host: string;
  port: number;
  /** true: TLS from the first byte (port 465); false: plain, upgraded by STARTTLS when offered. */
  secure: boolean;
  user: string | undefined;
  pass: string | undefined;
  /** The From header, e.g. `GPU 云平台 <noreply@example.com>`. */
  from: string;
}

/** E-mail through an SMTP server (nodemailer). */
export class SmtpEmailTransport implements EmailTransport {
  readonly kind = 'smtp';
  private readonly transporter: nodemailer.Transporter;

  constructor(private readonly settings: SmtpSettings) {
    this.transporter = nodemailer.createTransport({
      host: settings.host,
      port: settings.port,
      secure: settings.secure,
      auth: settings.user ? { user: settings.user, pass: settings.pass ?? '' } : undefined,
      connectionTimeout: 10_000,
      greetingTimeout: 10_000,
      socketTimeout: 20_000,
    });
  }

  async send(message: EmailMessage): Promise<void> {
    await this.transporter.sendMail({
      from: this.settings.from,
      to: message.to,
      subject: message.subject,
      text: message.text,
    });
  }

  close(): void {
    this.transporter.close();
  }
}
