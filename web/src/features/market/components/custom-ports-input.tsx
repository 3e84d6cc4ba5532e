import { App, Button, Flex, Input, Space, Tag, Typography } from 'antd';
import { useState } from 'react';
import { errorDetail } from '../../../lib/api-client';
import { useOccupiedPorts } from '../api/get-occupied-ports';
import { addCustomPorts, skippedReport } from '../ports';
import type { EntityId } from '../types';

export interface CustomPortsInputProps {
  id?: string;
  value?: number[];
  onChange?: (ports: number[]) => void;
  productId: EntityId | null;
  frameworkPorts: readonly number[];
}

/** 自定义端口: one port (10000-65535) or a range "start-end" at a time, up to 5. */
export function CustomPortsInput({
  id,
  value = [],
  onChange,
  productId,
  frameworkPorts,
}: CustomPortsInputProps) {
  const { message } = App.useApp();
  const [input, setInput] = useState('');
  const [error, setError] = useState<string | null>(null);
  const occupied = useOccupiedPorts(productId);

  const add = () => {
    const result = addCustomPorts(input, {
      serverSelected: productId !== null,
      added: value,
      frameworkPorts,
      occupied: occupied.data ?? [],
    });
    if (!result.ok) {
      setError(result.error);
      return;
    }
    setError(null);
    setInput('');
    onChange?.([...value, ...result.ports]);
    const report = skippedReport(result);
    if (report) message.info(report);
  };

  return (
    <Flex vertical gap={8}>
      <Space.Compact style={{ maxWidth: 360 }}>
        <Input
          id={id}
          value={input}
          placeholder="如 12000 或 12000-12003"
          status={error ? 'error' : undefined}
          onChange={(event) => setInput(event.target.value)}
          onPressEnter={(event) => {
            event.preventDefault();
            add();
          }}
        />
        <Button onClick={add} loading={occupied.isFetching}>
          添加
        </Button>
      </Space.Compact>
      {error ? (
        <Typography.Text type="danger" role="alert">
          {error}
        </Typography.Text>
      ) : null}
      {occupied.isError ? (
        <Typography.Text type="warning">获取端口列表失败：{errorDetail(occupied.error)}</Typography.Text>
      ) : null}
      {value.length > 0 ? (
        <Space size={[4, 4]} wrap>
          {value.map((port) => (
            <Tag key={port} closable onClose={() => onChange?.(value.filter((p) => p !== port))}>
              {port}
            </Tag>
          ))}
        </Space>
      ) : null}
    </Flex>
  );
}
