import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';

describe('component test environment', () => {
  it('renders React into jsdom', () => {
    render(<p>Book Your Therapy Session</p>);
    expect(screen.getByText('Book Your Therapy Session')).toBeTruthy();
  });
});
