import { CustomerServiceOutlined } from '@ant-design/icons';
import { Flex, Typography } from 'antd';
import { SUPPORT_HOURS } from '../money';
import { QrImage } from './payment-qr';

/** The contact-support option of the top-up dialog: the support QR code and its hours. */
export function SupportContact() {
  return (
    <Flex vertical align="center" gap={8} data-testid="support-contact">
      <QrImage text={`${window.location.origin}/contact`} testId="support-qr" />
      <Typography.Text>
        <CustomerServiceOutlined /> 请使用微信扫描二维码联系客服，告知账号与充值金额完成充值
      </Typography.Text>
      <Typography.Text type="secondary">客服工作时间：每天 {SUPPORT_HOURS}</Typography.Text>
    </Flex>
  );
}
