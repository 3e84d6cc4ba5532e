import type { FrameworkVersion } from '@gpucloud/control-plane/api';
import { Form, type FormInstance, Radio, Select, Typography } from 'antd';
import { useEffect, useRef } from 'react';
import { errorDetail } from '../../../lib/api-client';
import { useFrameworks, useFrameworkVersions } from '../api/get-frameworks';
import { findPreset, versionsForServer } from '../framework-versions';
import { startsAtOnce } from '../products';
import type { PurchaseFormValues, PurchasePreset } from '../purchase';
import { CustomImageField } from './custom-image-field';

/** What the chosen version brings: its ports (Windows' custom list included) and default mounts. */
function VersionSummary({ version }: { version: FrameworkVersion }) {
  const ports = Object.entries(version.ports ?? {})
    .map(([name, port]) => (name === 'custom' ? String(port) : `${name}:${String(port)}`))
    .join('，');
  const mounts = (version.mounts ?? []).map((m) => `${m.source} → ${m.target}`).join('，');
  return (
    <Typography.Text type="secondary" data-testid="version-summary">
      端口：{ports || '无'}
      {mounts ? `；默认挂载：${mounts}` : ''}
    </Typography.Text>
  );
}

export interface FrameworkFieldsProps {
  form: FormInstance<PurchaseFormValues>;
  windowsServer: boolean;
  preset: PurchasePreset;
  /** Versions whose image the server holds: marked 已缓存, they start at once. */
  warmVersionIds?: number[] | undefined;
}

/**
 * 镜像类型, then 框架 and 框架版本 (公共镜像; versions are limited to the server's system type) or
 * one of the user's saved images (自定义镜像).
 */
export function FrameworkFields({ form, windowsServer, preset, warmVersionIds }: FrameworkFieldsProps) {
  const frameworkId = Form.useWatch('framework', form);
  const frameworks = useFrameworks();
  const versions = useFrameworkVersions(frameworkId);
  const offered = versionsForServer(versions.data ?? [], windowsServer);
  const versionId = Form.useWatch('frameworkVersion', form);
  const imageType = Form.useWatch('imageType', form) ?? preset.imageType ?? 'public';
  const chosen = offered.find((v) => v.id === versionId);
  const presetApplied = useRef({ framework: false, version: false });

  // A link from the app market (/market?framework=&version=) preselects its choice once.
  useEffect(() => {
    if (presetApplied.current.framework || !frameworks.data) return;
    presetApplied.current.framework = true;
    const match = findPreset(frameworks.data, preset.framework, (f) => f.name);
    if (match && form.getFieldValue('framework') === undefined) form.setFieldValue('framework', match.id);
  }, [frameworks.data, preset.framework, form]);

  useEffect(() => {
    if (presetApplied.current.version || !versions.data || frameworkId === undefined) return;
    presetApplied.current.version = true;
    const match = findPreset(offered, preset.version, (v) => v.version);
    if (match && form.getFieldValue('frameworkVersion') === undefined)
      form.setFieldValue('frameworkVersion', match.id);
  }, [versions.data, offered, preset.version, frameworkId, form]);

  return (
    <>
      <Form.Item label="镜像类型" name="imageType">
        <Radio.Group>
          <Radio value="public">公共镜像</Radio>
          <Radio value="custom">自定义镜像</Radio>
        </Radio.Group>
      </Form.Item>
      {imageType === 'custom' ? <CustomImageField form={form} /> : null}
      <Form.Item
        hidden={imageType === 'custom'}
        label="框架"
        name="framework"
        rules={[{ required: imageType !== 'custom', message: '请选择框架' }]}
        help={frameworks.isError ? `获取框架列表失败：${errorDetail(frameworks.error)}` : undefined}
        validateStatus={frameworks.isError ? 'error' : undefined}
      >
        <Select<number>
          placeholder="请选择框架"
          loading={frameworks.isPending}
          options={(frameworks.data ?? []).map((f) => ({ value: f.id, label: f.name }))}
          onChange={() => form.setFieldValue('frameworkVersion', undefined)}
        />
      </Form.Item>
      <Form.Item
        hidden={imageType === 'custom'}
        label="框架版本"
        name="frameworkVersion"
        rules={[{ required: imageType !== 'custom', message: '请选择版本' }]}
        help={versions.isError ? `获取框架版本失败：${errorDetail(versions.error)}` : undefined}
        validateStatus={versions.isError ? 'error' : undefined}
        extra={
          frameworkId !== undefined && versions.isSuccess && offered.length === 0 ? (
            <Typography.Text type="secondary">
              该框架暂无适用于{windowsServer ? ' Windows ' : ' Ubuntu '}服务器的版本
            </Typography.Text>
          ) : chosen ? (
            <VersionSummary version={chosen} />
          ) : undefined
        }
      >
        <Select<number>
          placeholder={frameworkId === undefined ? '请先选择框架' : '请选择版本'}
          disabled={frameworkId === undefined}
          loading={versions.isFetching}
          options={offered.map((v) => {
            const label = v.cuda_version ? `${v.version}（CUDA ${v.cuda_version}）` : v.version;
            const warm = startsAtOnce({ warm_version_ids: warmVersionIds }, v.id);
            return { value: v.id, label: warm ? `${label} · 已缓存，秒级启动` : label };
          })}
        />
      </Form.Item>
    </>
  );
}
